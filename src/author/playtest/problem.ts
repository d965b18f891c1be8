import type { JsonPath } from "../../world/diagnostic.ts";
import { type ErrorTable, errorMessage, type MessageIdOf } from "../../world/error-table.ts";

/**
 * A problem with a play-test file (it cannot run as written), in the shape of
 * the world checker's diagnostics: a stable code, a message that says what to
 * do, the path inside the file and its 1-based position.
 */
export interface Problem {
  code: ProblemCode;
  message: string;
  path: JsonPath;
  line: number | null;
  column: number | null;
}

/** A failed expectation (or a step that could not run), at its position in the file. */
export interface TestFailure {
  message: string;
  path: JsonPath;
  line: number | null;
  column: number | null;
  /** 1-based step number within the test; null for the test's setup (world, players, given). */
  step: number | null;
}

/**
 * The codes of play-test file problems, in the error tables' shape
 * (docs/errors.md): each message is written here once, with `{named}`
 * placeholders, and raised as code + message id + data (`problemAt`).
 */
export const PROBLEM_CODES = {
  "playtest/unreadable": {
    description: "The play-test file cannot be read.",
    messages: {
      "not-file": "This is not a file.",
      unreadable: "The file cannot be read: {reason}.",
    },
  },
  "playtest/too-large": {
    description: "The play-test file is larger than a play-test needs to be.",
    messages: {
      "too-large":
        "The file is larger than {mib} MiB. A play-test is a few hundred lines: split it into several files.",
    },
  },
  "playtest/syntax": {
    description: "The file is not valid YAML (or JSON, for *.test.json).",
    messages: {
      "too-deep":
        "Brackets nest deeper than {depth} levels here. A play-test nests a few levels: check the brackets.",
      yaml: "The YAML could not be read: {reason}.",
      empty: "The file is empty.",
      "several-documents":
        "The file holds several YAML documents (`---`); a play-test file is one document. Use `tests:` for several play-tests in one file.",
      tab: "A tab indents this line; YAML indents with spaces only. Replace the tab with spaces.",
      "non-string-key": "Keys must be plain names, not lists or mappings.",
      "multiline-key": "A key must fit on one line (or quote it).",
      "bad-indent":
        "The indentation is off here (or a bracket is not closed). Align the line with its siblings.",
      tag: "{reason}. Play-tests hold plain values: remove the tag.",
      "yaml-issue": "{reason}.",
      json: "Invalid JSON: {reason}. Fix the file at this position.",
      unexpected: "The file could not be read ({reason}). Simplify it; if it looks fine, please report it.",
    },
  },
  "playtest/duplicate-key": {
    description: "A key appears twice in the same mapping.",
    messages: {
      yaml: "This key appears twice in the same mapping; keep one.",
      json: "This key appears twice in the same object; keep one (JSON keeps only the last).",
    },
  },
  "playtest/alias": {
    description: "YAML aliases expand to too much data, or name an anchor that is not defined.",
    messages: {
      "too-many-nodes":
        "Aliases here expand to too much data (more than {max} nodes per alias). Write the values out, or alias less.",
      unresolved: "{reason}. Define the anchor (&name) before using the alias (*name).",
      unreadable: "The YAML could not be read: {reason}.",
      "too-many-values":
        "With its aliases expanded, the file holds more than {max} values. Alias less (or split the file).",
    },
  },
  "playtest/unknown-key": {
    description: "A key the play-test format does not define (a typo, usually).",
    messages: {
      proto: "`__proto__` cannot be a key here; remove it.",
      unknown: "`{key}` is not a key of {where}.{suggestion} Known keys: {known}.",
    },
  },
  "playtest/missing-key": {
    description: "A required key is missing.",
    messages: {
      missing: "`{key}` is missing in {parent}.{hint}",
      "no-turns":
        "The file has neither `turns:` (one play-test) nor `tests:` (several). Add the steps to play.",
    },
  },
  "playtest/wrong-type": {
    description: "A value has the wrong type.",
    messages: {
      "not-mapping": "A play-test file is a mapping with `world:` and `turns:` (or `tests:`), not {actual}.",
      type: "{field} must be {expected}, not {actual}.",
      "not-json": "`{path}` must be JSON data, not {actual}.",
    },
  },
  "playtest/invalid-value": {
    description: "A value is not one of the allowed values.",
    messages: {
      "one-of": "{field} is {actual}.{suggestion} Use one of: {values}.",
      bounds: "{field} {issue}.",
      other: "{field}: {issue}.",
      "not-finite": "`{path}` is {actual}; storage holds JSON, which has no infinity or NaN.",
    },
  },
  "playtest/conflict": {
    description: "Keys that cannot be used together, or one that needs another.",
    messages: {
      "turns-and-tests": "Use `turns:` (one play-test) or `tests:` (several), not both.",
      "file-name": "With `tests:`, name each test (`tests[N].name`) instead of the file.",
      "same-name": "Test {test} has the same name as test {first}; give each test its own name.",
      "premade-and-name": "A player is `premade: <name>` or a made-up `name:`, not both.",
      "no-player-name": "A player needs `name:` (made up) or `premade:` (a premade character of the world).",
      "premade-has": "A premade character has its own {key}; remove `{key}`.",
      "two-kinds":
        "A step does one thing: `{first}` and `{second}` cannot be in the same step. Split it into two steps.",
      "does-nothing":
        "This step does nothing: give it `act:`, `acts:`, `accept:`, `reject:`, `abandon:` or `expect:`.",
      "player-with-acts": "With `acts:`, each entry names its player; remove `player:`.",
      "player-without-act": "`player:` names who acts; it goes with `act:`.",
      "pin-without-act": "`{pin}:` pins an answer of a played turn; it goes with `act:` or `acts:`.",
      "target-without-intent":
        "`target:` pins the target of a pinned intent: add `intent:` (travel, move, fastTravel or teleport), or remove `target:` to let the classifier answer both.",
      "acts-twice": '"{player}" already acts in this turn (acts[{first}]); one action per player.',
    },
  },
  "playtest/unknown-name": {
    description: "A name (trigger, quest, event, player, place...) that the world does not define.",
    messages: {
      unknown: 'No {kind} "{name}" {where}.{suggestion} Known: {known}.',
    },
  },
  "playtest/export": {
    description: "A save or cassette cannot be turned into a play-test (`taleforge export-test`).",
    messages: {
      "other-world":
        "{source} was played on another world, or another version of this one. Export it with the exact world file it was played with (--world).",
      save: "{source} cannot be exported: {reason}",
      setup:
        "{source} does not say how its game started ({reason}). Export a cassette written by `taleforge play --record` or the server.",
      resumed:
        "{source} starts from a saved game; a play-test starts from the world's opening. Export the cassette of the game that save came from.",
      loaded:
        "{source} loads a saved game at input {input}; a play-test cannot. Export the part before it (--to-turn), or the cassette of the game it loaded.",
      input: "{source} holds an input this version cannot play at input {input} ({reason}).",
      branched:
        "{source} switched to another branch (/branch) at input {input}; a play-test follows one line of play. Save the game and export the save (it holds the current branch), or export before the switch.",
      switched:
        "{source} switches to another branch or deletes one at input {input} (/branch), which an export of a cassette does not follow. Export the game's save instead (it holds the current branch), or the part before it (--to-turn).",
      diverged:
        "{source} does not replay on this world: {reason}. The world (or the engine) has changed since it was recorded.",
      unfinished:
        "{source} does not replay on this world: {count} recorded entries were never asked for. The world (or the engine) has changed since it was recorded.",
      "save-diverged":
        "{source} is a save, which keeps the actions and the story but not the AI's intents and verdicts; replayed offline, the game does not end where the save did ({reason}). Export the game's cassette instead (`taleforge play --record`, or the server's /games/:id/cassette).",
      "no-turns":
        "{source} holds no turn to export{slice}. Play at least one turn, or widen --from-turn/--to-turn.",
      slice: "--from-turn {from} is after --to-turn {to}: give a slice whose first turn comes first.",
    },
  },
} as const satisfies ErrorTable;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** The message ids of one problem code. */
export type ProblemMessage<C extends ProblemCode> = MessageIdOf<typeof PROBLEM_CODES, C>;

/** The data a problem's template is filled with. */
export type ProblemData = Record<string, string | number>;

/** A problem's message: its code's template `messageId` filled with `data`. */
export function problemMessage<C extends ProblemCode>(
  code: C,
  messageId: ProblemMessage<C>,
  data: ProblemData = {},
): string {
  return errorMessage(PROBLEM_CODES, code, messageId, data);
}

/** A problem of the whole file or at a position (no path inside the file to locate). */
export function problemOf<C extends ProblemCode>(
  code: C,
  messageId: ProblemMessage<C>,
  data: ProblemData,
  at: Position | null,
  path: JsonPath = [],
): Problem {
  return {
    code,
    message: problemMessage(code, messageId, data),
    path,
    line: at?.line ?? null,
    column: at?.column ?? null,
  };
}

export interface Position {
  line: number;
  column: number;
}

/** Maps a path inside the file to a position: the node, or with atKey the key of its last segment. */
export type Locate = (path: JsonPath, atKey?: boolean) => Position | null;

/** A problem at a path inside the file: code + message id + data (the text is PROBLEM_CODES'). */
export function problemAt<C extends ProblemCode>(
  locate: Locate,
  code: C,
  path: JsonPath,
  messageId: ProblemMessage<C>,
  data: ProblemData = {},
  atKey = false,
): Problem {
  return { code, message: problemMessage(code, messageId, data), ...placed(locate, path, atKey) };
}

/** A failed expectation, or a step that could not play, at its place in the file. */
export function failureAt(
  locate: Locate,
  path: JsonPath,
  message: string,
  step: number | null,
  atKey = false,
): TestFailure {
  return { message, ...placed(locate, path, atKey), step };
}

/** A path with its position in the file (null when it has none). */
function placed(locate: Locate, path: JsonPath, atKey: boolean): Pick<Problem, "path" | "line" | "column"> {
  const at = locate(path, atKey);
  return { path, line: at?.line ?? null, column: at?.column ?? null };
}

/** File order for problems and failures; the unpositioned come first (they concern the whole file). */
export function byPosition(a: Pick<Problem, "line" | "column">, b: Pick<Problem, "line" | "column">): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
