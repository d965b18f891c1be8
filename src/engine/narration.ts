import type { StepContext } from "./context.ts";
import { EngineError } from "./errors.ts";
import { own } from "./own.ts";
import type { IntentAnswer, NarrationAnswer, NarrationRequest, Narrator } from "./ports.ts";
import { sceneOf } from "./scene.ts";

/**
 * The narration of a turn (or of the opening): ONE narrator call with the
 * scene, the one-time instructions that were pending before the turn began,
 * the mechanical outcomes so far and the active narrative event. The story
 * text joins the history.
 */
export interface NarrationInput {
  opening: boolean;
  actions: { player: string; text: string }[];
  intent: IntentAnswer | null;
  instructions: string[];
  event: string | null;
  openingText?: string;
}

export async function narrate(
  ctx: StepContext,
  narrator: Narrator,
  input: NarrationInput,
  onChunk?: (text: string) => void,
  signal?: AbortSignal,
): Promise<NarrationAnswer> {
  const definition = input.event === null ? undefined : own(ctx.index.world.narrativeEvents, input.event);
  const request: NarrationRequest = {
    tick: ctx.state.tick,
    opening: input.opening,
    actions: input.actions.map((a) => ({ ...a })),
    intent: input.intent,
    instructions: [...input.instructions],
    event:
      input.event !== null && definition
        ? {
            key: input.event,
            title: definition.title,
            beats: definition.beats,
            activeTurns: own(ctx.state.events, input.event)?.activeTurns ?? 0,
          }
        : null,
    scene: sceneOf(ctx, input.openingText),
    outcomes: [...ctx.recorder.outcomes],
  };
  let answer: unknown;
  try {
    answer = await narrator.narrate(request, onChunk, signal);
  } catch (error) {
    throw new EngineError("ai/failed", `The narrator failed: ${(error as Error)?.message ?? error}`, {
      port: "narrate",
    });
  }
  const text = (answer as NarrationAnswer | null)?.text;
  if (typeof text !== "string") {
    throw new EngineError(
      "ai/failed",
      "The narrator answered without a text string; the turn was not played.",
      { port: "narrate" },
    );
  }
  const verdict = (answer as NarrationAnswer).eventVerdict;
  const story = input.opening && text.trim() === "" ? (input.openingText ?? "") : text;
  ctx.state.history.story.push({ tick: ctx.state.tick, text: story });
  return verdict === undefined ? { text: story } : { text: story, eventVerdict: verdict };
}
