import type { JsonPath } from "../../world/diagnostic.ts";
import type { ErrorTable } from "../../world/error-table.ts";

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

/** The codes of play-test file problems, in the error tables' shape (docs/errors.md). */
export const PROBLEM_CODES = {
  "playtest/unreadable": { description: "The play-test file cannot be read." },
  "playtest/too-large": { description: "The play-test file is larger than a play-test needs to be." },
  "playtest/syntax": { description: "The file is not valid YAML (or JSON, for *.test.json)." },
  "playtest/duplicate-key": { description: "A key appears twice in the same mapping." },
  "playtest/alias": {
    description: "YAML aliases expand to too much data, or name an anchor that is not defined.",
  },
  "playtest/unknown-key": { description: "A key the play-test format does not define (a typo, usually)." },
  "playtest/missing-key": { description: "A required key is missing." },
  "playtest/wrong-type": { description: "A value has the wrong type." },
  "playtest/invalid-value": { description: "A value is not one of the allowed values." },
  "playtest/conflict": { description: "Keys that cannot be used together, or one that needs another." },
  "playtest/unknown-name": {
    description: "A name (trigger, quest, event, player, place...) that the world does not define.",
  },
} as const satisfies ErrorTable;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface Position {
  line: number;
  column: number;
}

/** Maps a path inside the file to a position: the node, or with atKey the key of its last segment. */
export type Locate = (path: JsonPath, atKey?: boolean) => Position | null;

export function problemAt(
  locate: Locate,
  code: ProblemCode,
  path: JsonPath,
  message: string,
  atKey = false,
): Problem {
  return { code, message, ...placed(locate, path, atKey) };
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
