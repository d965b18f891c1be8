import { didYouMean } from "../world/suggest.ts";
import { EngineError } from "./errors.ts";
import { setOwn } from "./own.ts";
import { type EventVerdict, INTENTS, type Intent } from "./ports.ts";

const EVENT_VERDICTS: readonly EventVerdict[] = ["completed", "stopped", "neither"];

import type { SessionState } from "./state.ts";
import type { TurnInput } from "./turn.ts";

/**
 * The longest action text a player may send, in characters: a paragraph is
 * plenty for one turn, and every action is kept in the history of the save
 * and sent to the model (docs/play.md "Limits").
 */
export const MAX_ACTION_CHARS = 2000;

/**
 * Checks a turn input before anything runs: at least one action, each by a
 * player character of the party (party NPCs do not act), at most one action
 * per player, text as a string, and a well-formed intent pin.
 */
export function checkTurnInput(state: SessionState, input: unknown): TurnInput {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new EngineError("turn/invalid", "not-object");
  }
  const { actions, pins } = input as Record<string, unknown>;
  if (actions === undefined || (Array.isArray(actions) && actions.length === 0)) {
    throw new EngineError("turn/no-actions", "none");
  }
  if (!Array.isArray(actions)) throw new EngineError("turn/invalid", "actions");
  const players = state.party.filter((c) => c.kind === "player").map((c) => c.name);
  const seen = new Set<string>();
  const checked = actions.map((action, i) => {
    const fields = (action !== null && typeof action === "object" ? action : {}) as Record<string, unknown>;
    if (typeof fields.player !== "string" || typeof fields.text !== "string") {
      throw new EngineError("turn/invalid", "action", { index: i });
    }
    if (!players.includes(fields.player)) {
      throw new EngineError(
        "turn/unknown-player",
        "unknown",
        {
          index: i,
          player: fields.player,
          suggestion: didYouMean(fields.player, players),
          players: players.map((p) => `"${p}"`).join(", "),
        },
        { player: fields.player },
      );
    }
    if (seen.has(fields.player)) {
      throw new EngineError(
        "turn/duplicate-player",
        "twice",
        { index: i, player: fields.player },
        { player: fields.player },
      );
    }
    if (fields.text.length > MAX_ACTION_CHARS) {
      throw new EngineError(
        "turn/too-long",
        "too-long",
        { index: i, player: fields.player, length: fields.text.length, limit: MAX_ACTION_CHARS },
        { player: fields.player, length: fields.text.length, limit: MAX_ACTION_CHARS },
      );
    }
    seen.add(fields.player);
    return { player: fields.player, text: fields.text };
  });
  const out: TurnInput = { actions: checked };
  if (pins !== undefined) {
    if (pins === null || typeof pins !== "object") throw new EngineError("turn/invalid", "pins");
    const intent = (pins as Record<string, unknown>).intent;
    if (intent !== undefined) {
      const name = (intent as { intent?: unknown } | null)?.intent;
      if (!INTENTS.includes(name as Intent)) {
        throw new EngineError("turn/invalid", "pin-intent", {
          intents: INTENTS.join(", "),
          value: `${JSON.stringify(name)}`,
        });
      }
      out.pins = { intent: intent as NonNullable<TurnInput["pins"]>["intent"] };
    }
    const { story, judge } = pins as Record<string, unknown>;
    if (story !== undefined) {
      if (typeof story !== "string") throw new EngineError("turn/invalid", "pin-story");
      out.pins = { ...out.pins, story };
    }
    if (judge !== undefined) {
      if (judge === null || typeof judge !== "object" || Array.isArray(judge))
        throw new EngineError("turn/invalid", "pin-judge");
      const verdicts: Record<string, boolean> = {};
      for (const [key, value] of Object.entries(judge)) {
        if (typeof value !== "boolean")
          throw new EngineError("turn/invalid", "pin-verdict", {
            trigger: key,
            value: `${JSON.stringify(value)}`,
          });
        setOwn(verdicts, key, value);
      }
      out.pins = { ...out.pins, judge: verdicts };
    }
    const event = (pins as Record<string, unknown>).event;
    if (event !== undefined) {
      if (!EVENT_VERDICTS.includes(event as EventVerdict))
        throw new EngineError("turn/invalid", "pin-event", { value: `${JSON.stringify(event)}` });
      out.pins = { ...out.pins, event: event as EventVerdict };
    }
  }
  const draw = (input as Record<string, unknown>).draw;
  if (draw !== undefined) {
    if (!Number.isInteger(draw) || (draw as number) < 0 || (draw as number) > 1000)
      throw new EngineError("turn/invalid", "draw", { value: `${JSON.stringify(draw)}` });
    if ((draw as number) > 0) out.draw = draw as number;
  }
  return out;
}
