import { readFile, stat } from "node:fs/promises";
import type { SourceFile } from "../../world/source.ts";
import { kindOf, MAX_FILE_BYTES, parseText } from "./parse.ts";
import { type PlannedTest, planTests } from "./plan.ts";
import { byPosition, type Locate, type Problem, problemOf } from "./problem.ts";
import { checkRules } from "./rules.ts";
import type { PlaytestFile } from "./schema.ts";
import { checkShape } from "./shape.ts";

/** A play-test file read and checked against the format (not yet against its world). */
export interface LoadedPlaytest {
  /** The name shown in reports (a path relative to the working folder, usually). */
  file: string;
  /** The text, for code frames. */
  source: SourceFile;
  locate: Locate;
  problems: Problem[];
  /** Present when there is no problem. */
  spec: PlaytestFile | undefined;
  tests: PlannedTest[];
}

/** Parses and checks a play-test's text. Pure; never throws. */
export function parsePlaytest(text: string, file: string): LoadedPlaytest {
  try {
    return parseChecked(text, file);
  } catch (error) {
    // The checks are written not to throw; this is the last guard, so that one odd file is one problem.
    return {
      file,
      source: { name: file, text },
      locate: () => null,
      problems: [
        problemOf(
          "playtest/syntax",
          "unexpected",
          { reason: String((error as Error)?.message ?? error) },
          null,
        ),
      ],
      spec: undefined,
      tests: [],
    };
  }
}

function parseChecked(text: string, file: string): LoadedPlaytest {
  const source: SourceFile = { name: file, text };
  const parsed = parseText(text, kindOf(file));
  const base = { file, source, locate: parsed.locate, spec: undefined, tests: [] };
  if (parsed.problems.length > 0) return { ...base, problems: sortProblems(parsed.problems) };
  const shape = checkShape(parsed.value, parsed.locate);
  if (!shape.spec) return { ...base, problems: sortProblems(shape.problems) };
  const problems = checkRules(shape.spec, parsed.locate);
  if (problems.length > 0) return { ...base, problems: sortProblems(problems) };
  return { ...base, problems: [], spec: shape.spec, tests: planTests(shape.spec, file) };
}

/** Reads a play-test file; an unreadable file is a problem of that file, not an exception. */
export async function readPlaytest(path: string, file: string): Promise<LoadedPlaytest> {
  const unreadable = (problem: Problem): LoadedPlaytest => ({
    file,
    source: { name: file, text: "" },
    locate: () => null,
    problems: [problem],
    spec: undefined,
    tests: [],
  });
  try {
    const info = await stat(path);
    if (!info.isFile()) return unreadable(problemOf("playtest/unreadable", "not-file", {}, null));
    // Checked before reading: a huge file is refused without loading it.
    if (info.size > MAX_FILE_BYTES)
      return unreadable(
        problemOf("playtest/too-large", "too-large", { mib: MAX_FILE_BYTES / 1024 / 1024 }, null),
      );
    return parsePlaytest(await readFile(path, "utf8"), file);
  } catch (error) {
    return unreadable(
      problemOf("playtest/unreadable", "unreadable", { reason: (error as Error).message }, null),
    );
  }
}

/** In file order (unpositioned first: they concern the whole file). */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(byPosition);
}
