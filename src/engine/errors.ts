import { type ErrorInfo, errorMessage, type MessageIdOf } from "../world/error-table.ts";

/**
 * Rejections of the public API as coded data (boardgame.io's
 * `'action/invalid_move'`): every error the engine throws is an EngineError
 * with a stable code from this table, a message that says what to do, and
 * optional details. A rejected call leaves the session unchanged. The text
 * lives only here: a throw site names a code, a message id and its data
 * (docs/errors.md is generated from this table).
 */
export const ENGINE_ERRORS = {
  "world/invalid": {
    description: "The world has validation errors; the session cannot run it.",
    messages: {
      "not-object":
        "The world must be a V33 world object (for example the `world` of validateWorld's result).",
      "not-json": "The world is not plain JSON data: {reason}.",
      unchecked: "The world could not be checked: {reason}. Simplify it and run taleforge check.",
      "errors-one": "The world has 1 validation error; fix it (taleforge check) before playing:\n  {shown}",
      "errors-many":
        "The world has {count} validation errors; fix them (taleforge check) before playing:\n  {shown}",
      "errors-more":
        "The world has {count} validation errors; fix them (taleforge check) before playing:\n  {shown}\n  (and {rest} more)",
    },
  },
  "options/invalid": {
    description: "An option of createSession/restoreSession has the wrong type or value.",
    messages: {
      missing: "Pass an options object with at least `ai` (the AI ports).",
      "ai-method": "options.ai must implement {method}() (see AiPorts in src/engine/ports.ts).",
      scripts: "options.scripts must be a ScriptRunner (beginPhase/close), or be left out to skip scripts.",
      "max-judged": "options.maxJudged must be a whole number >= 0, not {value}.",
      validate: "options.validate must be true or false.",
      seed: "options.seed must be a finite number, not {value}.",
      "story-start": "options.storyStart must be the key of a story start.",
      players: "options.players must be a non-empty array of players.",
      "session-id": "options.sessionId must be a string.",
      "name-spaces": "{where}.name must not start or end with spaces.",
    },
  },
  "options/unknown-story-start": {
    description: "The story start named in the options is not in the world.",
    messages: { unknown: 'No story start "{storyStart}".{suggestion} The world has: {known}.' },
  },
  "options/no-story-start": {
    description: "The world defines no story start.",
    messages: { none: "The world defines no story start; add one to storyStarts." },
  },
  "player/unknown-premade": {
    description: "A player names a premade character the world does not define.",
    messages: { unknown: "{where}: no premade character {premade}.{suggestion} Premades: {known}." },
  },
  "player/unknown-trait": {
    description: "A player lists a trait the world does not define.",
    messages: { unknown: '{where}: no trait "{trait}".{suggestion}' },
  },
  "player/trait-not-selectable": {
    description: "A created player lists a trait that belongs to no trait category.",
    messages: {
      "no-category":
        '{where}: trait "{trait}" is in no trait category, so it cannot be chosen at creation (a player-traits effect can still grant it).',
    },
  },
  "player/too-many-traits": {
    description: "A created player picks more traits of a category than its maxSelections.",
    messages: { "too-many": '{where}: at most {max} trait(s) of category "{category}" may be chosen.' },
  },
  "player/unknown-attribute": {
    description: "A created player sets an attribute the world does not define.",
    messages: { unknown: '{where}: no attribute "{attribute}".{suggestion} Attributes: {known}.' },
  },
  "player/duplicate-name": {
    description: "Two party members share a name.",
    messages: {
      taken:
        '{where}: the name "{name}" is already taken by "{clash}" in the party. Give each party member its own name.',
    },
  },
  "player/invalid": {
    description: "A player entry has the wrong shape.",
    messages: {
      shape: "{where} must be {premade: name} or {name, attributes?, traits?}.",
      "no-name": '{where}: a made-up player needs a non-empty "name" (or use {premade: name}).',
      attributes: "{where}.attributes must map attribute names to numbers.",
      "attribute-value": "{where}.attributes.{attribute} must be a finite number.",
      traits: "{where}.traits must be an array of trait names.",
    },
  },
  "turn/invalid": {
    description: "The turn input has the wrong shape.",
    messages: {
      "not-object":
        "A turn input is an object: {actions: [{player, text}], pins?: {intent?, story?, judge?, event?}}.",
      actions: "turn input `actions` must be an array of {player, text}.",
      action: "actions[{index}] must be {player: string, text: string}.",
      pins: "turn input `pins` must be an object.",
      "pin-intent": "pins.intent.intent must be one of {intents}, not {value}.",
      "pin-story": "pins.story must be a string.",
      "pin-judge": "pins.judge must map trigger keys to true or false.",
      "pin-verdict": 'pins.judge["{trigger}"] must be true or false, not {value}.',
      "pin-event": "pins.event must be one of completed, stopped, neither, not {value}.",
      "pin-trigger": 'pins.judge names "{trigger}", which is not a trigger of this session.{suggestion}',
      draw: "turn input `draw` must be a whole number from 0 to 1000 (the retry count of the turn), not {value}.",
    },
  },
  "turn/no-actions": {
    description: "The turn input holds no player action.",
    messages: { none: "The turn holds no action: give at least one {player, text}." },
  },
  "turn/unknown-player": {
    description: "An action names a player who is not a player character of the party.",
    messages: {
      unknown:
        'actions[{index}]: "{player}" is not a player of this session.{suggestion} Players: {players}.',
    },
  },
  "turn/duplicate-player": {
    description: "One player acts twice in the same turn.",
    messages: { twice: 'actions[{index}]: "{player}" already acts this turn; send one action per player.' },
  },
  "turn/too-long": {
    description: "An action's text is longer than the limit (MAX_ACTION_CHARS, 2,000 characters).",
    messages: {
      "too-long":
        'actions[{index}]: the action of "{player}" is {length} characters; the limit is {limit}. Say it in fewer words.',
    },
  },
  "session/busy": {
    description: "Another call on this session has not finished yet.",
    messages: { busy: "A turn is still running on this session; wait for it to finish." },
  },
  "quest/unknown": {
    description: "The quest name is not a quest of the world.",
    messages: {
      "not-string": "A quest is named by its key (a string).",
      unknown: 'No quest "{quest}".{suggestion}',
    },
  },
  "quest/not-available": {
    description: "Only an available quest can be accepted or rejected.",
    messages: {
      accept: 'Quest "{quest}" is {status}; only an available quest can be accepted.',
      reject: 'Quest "{quest}" is {status}; only an available quest can be rejected.',
    },
  },
  "quest/not-accepted": {
    description: "Only an accepted quest can be abandoned.",
    messages: { abandon: 'Quest "{quest}" is {status}; only an accepted quest can be abandoned.' },
  },
  "save/malformed": {
    description: "The saved session is not valid JSON or not a Taleforge save.",
    messages: {
      json: "The save is not valid JSON ({reason}): it was cut short or edited, or is not a save.",
      format: 'This is not a Taleforge save: it lacks "format": "{format}".',
      version: "The save has no valid version numbers (version, minReadableVersion).",
      state: "The saved state cannot be read: {reason}.",
      damaged: "The saved state is damaged at {path}: {issue}.",
      "damaged-edited":
        "The saved state is damaged at {path}: {issue}. It was also written on another world, or on another version of this one.",
    },
  },
  "save/future-version": {
    description: "The save was written by a newer engine that this one cannot read.",
    messages: {
      newer:
        "The save needs save format {minReadableVersion} or later (written as version {version}); this engine reads version {engineVersion}. Update Taleforge to resume it.",
    },
  },
  "save/world-mismatch": {
    description:
      "The save belongs to another world, or to an edited version of this world that it no longer fits (a place, trigger or quest it needs is gone).",
    messages: {
      one: "The save does not fit this world: it was written on another world or another version of this one (world hash {saved}, this world {world}), and this cannot be reconciled:{list}\nResume it with the world file it was played with, or restore what the edit removed.",
      many: "The save does not fit this world: it was written on another world or another version of this one (world hash {saved}, this world {world}), and these {count} problems cannot be reconciled:{list}\nResume it with the world file it was played with, or restore what the edit removed.",
    },
  },
  "save/inconsistent": {
    description:
      "The save describes a game its own world cannot hold (unknown places, quests, items or traits, a resource above its maximum, duplicate names, an invalid script-made trigger).",
    messages: {
      one: "The save describes a game this world cannot hold (1 problem); it was damaged or edited by hand:{list}",
      many: "The save describes a game this world cannot hold ({count} problems); it was damaged or edited by hand:{list}",
    },
  },
  "ai/failed": {
    description: "An AI port failed or gave an answer the engine cannot use.",
    messages: {
      narrator: "The narrator failed: {reason}",
      "narrator-text": "The narrator answered without a text string; the turn was not played.",
      judge: "The AI judge failed in the {phase} phase: {reason}",
      classifier: "The intent classifier failed: {reason}",
    },
  },
} as const satisfies Record<string, Required<ErrorInfo>>;

export type EngineErrorCode = keyof typeof ENGINE_ERRORS;

/** The message ids of one engine error code. */
export type EngineMessageId<C extends EngineErrorCode> = MessageIdOf<typeof ENGINE_ERRORS, C>;

/** A code, one of its message ids, the template's data, and details for programs. */
type EngineErrorArgs = {
  [C in EngineErrorCode]: [
    code: C,
    messageId: EngineMessageId<C>,
    data?: Record<string, string | number>,
    details?: Record<string, unknown>,
  ];
}[EngineErrorCode];

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details: Record<string, unknown>;

  /** The message is the table's template `messageId` of `code`, filled with `data`. */
  constructor(...[code, messageId, data = {}, details = {}]: EngineErrorArgs) {
    super(errorMessage(ENGINE_ERRORS, code, messageId, data));
    this.name = "EngineError";
    this.code = code;
    this.details = details;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}
