import { callIdentity } from "./call-identity.ts";
import type { StepContext } from "./context.ts";
import { EngineError } from "./errors.ts";
import { INTENTS, type Intent, type IntentAnswer, type IntentClassifier } from "./ports.ts";
import { npcNamesHere, placesFor, recentStory } from "./scene.ts";
import type { TurnTrace } from "./trace.ts";

/**
 * The planning phase's intent (spec 3): ONE classifier call on the first
 * action of the turn, unless the turn input pins the intent. An answer that
 * names no known intent is read as `other`, and the trace says so.
 */
export async function classifyIntent(
  ctx: StepContext,
  classifier: IntentClassifier,
  first: { player: string; text: string },
  pinned: IntentAnswer | undefined,
  signal?: AbortSignal,
  all: readonly { player: string; text: string }[] = [first],
): Promise<{ answer: IntentAnswer; trace: TurnTrace["intent"]; calls: number }> {
  if (pinned !== undefined) {
    const answer = sanitise(pinned);
    return {
      answer: answer.value,
      trace: withNote({ source: "pin", answer: answer.value }, answer.note),
      calls: 0,
    };
  }
  const { realm, region, location, area } = ctx.state.position;
  let raw: unknown;
  try {
    raw = await classifier.classify(
      {
        tick: ctx.state.tick,
        ...callIdentity(ctx.state, "intent"),
        player: first.player,
        text: first.text,
        places: placesFor(ctx),
        position: { realm, region, location, area },
        npcsPresent: npcNamesHere(ctx),
        recentStory: recentStory(ctx).join("\n\n"),
        // With several players, the party's intent is read from every action (still one call).
        ...(all.length > 1 ? { actions: all.map((a) => ({ player: a.player, text: a.text })) } : {}),
      },
      signal,
    );
  } catch (error) {
    throw new EngineError(
      "ai/failed",
      "classifier",
      { reason: `${(error as Error)?.message ?? error}` },
      { port: "classify" },
    );
  }
  const answer = atConfidence(sanitise(raw));
  return {
    answer: answer.value,
    trace: withNote({ source: "classifier", answer: answer.value }, answer.note),
    calls: 1,
  };
}

/**
 * Spec 3 ("Planning-phase intent types"): travel and move fire only at high
 * confidence. The classifier's answer below this is read as `other` (the turn
 * goes on, nobody moves) and the trace says the destination was unclear. An
 * answer without a confidence expressed no doubt and counts as sure; a pinned
 * intent is the caller's decision and is never checked.
 */
export const MOVE_MIN_CONFIDENCE = 0.75;
const NEEDS_CONFIDENCE = new Set<Intent>(["travel", "move"]);

function atConfidence(answer: { value: IntentAnswer; note?: string }): {
  value: IntentAnswer;
  note?: string;
} {
  const { intent, confidence, target } = answer.value;
  if (!NEEDS_CONFIDENCE.has(intent) || confidence === undefined || confidence >= MOVE_MIN_CONFIDENCE)
    return answer;
  const where = target === undefined ? "" : ` "${target}"`;
  return {
    value: { intent: "other", confidence },
    note: `${intent}${where} at confidence ${confidence} (below ${MOVE_MIN_CONFIDENCE}, spec 3) read as "other": the destination was unclear`,
  };
}

function sanitise(raw: unknown): { value: IntentAnswer; note?: string } {
  const fields = (raw !== null && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const known = INTENTS.includes(fields.intent as Intent);
  const value: IntentAnswer = { intent: known ? (fields.intent as Intent) : "other" };
  if (typeof fields.target === "string") value.target = fields.target;
  if (typeof fields.confidence === "number" && Number.isFinite(fields.confidence))
    value.confidence = fields.confidence;
  if (typeof fields.leader === "string" && fields.leader !== "") value.leader = fields.leader.slice(0, 200);
  return known
    ? { value }
    : { value, note: `unknown intent ${JSON.stringify(fields.intent)} read as "other"` };
}

function withNote(trace: TurnTrace["intent"], note: string | undefined): TurnTrace["intent"] {
  return note === undefined ? trace : { ...trace, note };
}
