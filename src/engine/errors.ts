/**
 * Rejections of the public API as coded data (boardgame.io's
 * `'action/invalid_move'`): every error the engine throws is an EngineError
 * with a stable code from this table, a message that says what to do, and
 * optional details. A rejected call leaves the session unchanged.
 */
export const ENGINE_ERRORS = {
  "world/invalid": "The world has validation errors; the session cannot run it.",
  "options/invalid": "An option of createSession/restoreSession has the wrong type or value.",
  "options/unknown-story-start": "The story start named in the options is not in the world.",
  "options/no-story-start": "The world defines no story start.",
  "player/unknown-premade": "A player names a premade character the world does not define.",
  "player/unknown-trait": "A player lists a trait the world does not define.",
  "player/trait-not-selectable": "A created player lists a trait that belongs to no trait category.",
  "player/too-many-traits": "A created player picks more traits of a category than its maxSelections.",
  "player/unknown-attribute": "A created player sets an attribute the world does not define.",
  "player/duplicate-name": "Two party members share a name.",
  "player/invalid": "A player entry has the wrong shape.",
  "turn/invalid": "The turn input has the wrong shape.",
  "turn/no-actions": "The turn input holds no player action.",
  "turn/unknown-player": "An action names a player who is not a player character of the party.",
  "turn/duplicate-player": "One player acts twice in the same turn.",
  "turn/too-long": "An action's text is longer than the limit (MAX_ACTION_CHARS, 2,000 characters).",
  "session/busy": "Another call on this session has not finished yet.",
  "quest/unknown": "The quest name is not a quest of the world.",
  "quest/not-available": "Only an available quest can be accepted or rejected.",
  "quest/not-accepted": "Only an accepted quest can be abandoned.",
  "save/malformed": "The saved session is not valid JSON or not a Taleforge save.",
  "save/future-version": "The save was written by a newer engine that this one cannot read.",
  "save/world-mismatch":
    "The save belongs to another world, or to an edited version of this world that it no longer fits (a place, trigger or quest it needs is gone).",
  "save/inconsistent":
    "The save describes a game its own world cannot hold (unknown places, quests, items or traits, a resource above its maximum, duplicate names, an invalid script-made trigger).",
  "ai/failed": "An AI port failed or gave an answer the engine cannot use.",
} as const;

export type EngineErrorCode = keyof typeof ENGINE_ERRORS;

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: EngineErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.details = details;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}
