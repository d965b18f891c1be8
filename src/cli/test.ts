import { findPlaytests } from "../author/playtest/files.ts";
import { formatCoverage } from "../author/playtest/report/coverage.ts";
import { formatJunit } from "../author/playtest/report/junit.ts";
import { formatResults, formatWorldErrors } from "../author/playtest/report/text.ts";
import { countResults, type RunResult, runPlaytests } from "../author/playtest/run.ts";
import { EXIT_OK, EXIT_PROBLEMS, fail, reasonOf } from "./exit.ts";
import { type CliIo, wantsColor } from "./io.ts";

export interface TestOptions {
  /** text (default) or junit. */
  format?: string;
  /** Report which triggers, effects and quest statuses the play-tests reached. */
  coverage?: boolean;
  /** Fail the play-tests of a world with any error (by default a world whose errors all come from rules runs, as in `play`). */
  strict?: boolean;
}

const FORMATS = ["text", "junit"];

/**
 * `taleforge test <paths...>`: finds the play-tests, runs them with the
 * offline provider and the real sandbox, prints the results (and coverage).
 * Returns 0 when every play-test passed, 1 when one failed or a play-test
 * file (or its world) is broken, 2 when it could not run: bad option, a path
 * that does not exist, a folder without play-tests.
 */
export async function test(paths: readonly string[], options: TestOptions, io: CliIo): Promise<number> {
  const format = options.format ?? "text";
  if (!FORMATS.includes(format)) return fail(io, `unknown format "${format}". Use --format text or junit.`);
  if (paths.length === 0) return fail(io, "name at least one play-test file or folder.");
  const cwd = io.cwd ?? process.cwd();
  const found = await findPlaytests(paths, cwd);
  if (found.errors.length > 0)
    return fail(
      io,
      `${found.errors[0]}. Check the path; a folder is searched for *.test.yaml, *.test.yml and *.test.json.`,
    );

  let result: RunResult;
  try {
    result = await runPlaytests(found.files, { cwd, strict: options.strict === true });
  } catch (error) {
    // The runner reports bad input as results; this is the last guard so that a user sees one line.
    return fail(
      io,
      `could not run the play-tests: ${reasonOf(error)}. This is a Taleforge bug: please report it.`,
    );
  }

  const color = wantsColor(io);
  io.stdout(format === "junit" ? formatJunit(result) : formatResults(result, { color }));
  // JUnit owns stdout (one XML document), so the heading of worlds run despite their errors goes to stderr there.
  if (format === "junit") io.stderr(formatWorldErrors(result, { color: false }));
  if (options.coverage === true) {
    // JUnit owns stdout (it must stay one XML document), so coverage goes to stderr there.
    if (format === "junit") io.stderr(formatCoverage(result.coverage, { color: false }));
    else io.stdout(`\n${formatCoverage(result.coverage, { color })}`);
  }
  return countResults(result).failed > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
