import type { LoadedWorld } from "../world/load.ts";
import type { ValidationResult } from "../world/validate.ts";
import { EXIT_OK, EXIT_PROBLEMS, fail, reasonOf } from "./exit.ts";
import type { CheckedWorld } from "./format/checked.ts";
import { FORMAT_NAMES, FORMATTERS, isFormatName } from "./format/index.ts";
import { type CliIo, wantsColor } from "./io.ts";
import { TOOL } from "./tool.ts";
import { readWorldArgument } from "./world-file.ts";

/** The options `check` and `lint` share. */
export interface ReportOptions {
  /** stylish (default), json or sarif. */
  format?: string;
  /** Exit 1 when there are more warnings than this (a whole number, as typed). */
  maxWarnings?: string;
}

/** What a command runs on a loaded world: validateWorld for `check`, lintWorld for `lint`. */
export interface WorldAnalysis {
  /** The command's verb, for "could not <verb> …". */
  verb: string;
  run(loaded: LoadedWorld): ValidationResult;
}

/**
 * The body of `taleforge check` and `taleforge lint`: reads a world (a file,
 * or stdin for `-`), runs the analysis, prints the report in the chosen
 * format. Returns 0 when there is no error (and warnings are within
 * --max-warnings), 1 when the world has problems, 2 when it could not be
 * read at all (bad option, missing or unreadable file).
 */
export async function reportOnWorld(
  file: string,
  options: ReportOptions,
  io: CliIo,
  analysis: WorldAnalysis,
): Promise<number> {
  const format = options.format ?? "stylish";
  if (!isFormatName(format))
    return fail(io, `unknown format "${format}". Use --format ${FORMAT_NAMES.join(", ")}.`);
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  if (Number.isNaN(maxWarnings))
    return fail(io, `--max-warnings must be a whole number (0 or more), not "${options.maxWarnings}".`);

  let checked: CheckedWorld;
  try {
    const read = await readWorldArgument(file, io, analysis.run);
    if (!read.ok) return read.code;
    checked = { ...read.checked, source: read.loaded.source };
  } catch (error) {
    // The library never throws on bad input by design; this is the last guard so that a user sees one line.
    return fail(io, `could not ${analysis.verb} ${file === "-" ? "stdin" : file}: ${explain(error)}`);
  }

  // Only SARIF prints the catalogue, which holds the lint rules: loaded for it alone, a `check` in
  // the other formats starts none of the lint modules (docs/benchmarks.md, issue 38, round 7).
  const catalogue = format === "sarif" ? (await import("../world/catalogue.ts")).CATALOGUE : [];
  const text = FORMATTERS[format](checked, { color: wantsColor(io), tool: TOOL, catalogue });
  io.stdout(text);
  if (checked.errorCount > 0) return EXIT_PROBLEMS;
  if (maxWarnings !== undefined && checked.warningCount > maxWarnings) {
    io.stderr(
      `taleforge: too many warnings (${checked.warningCount}; --max-warnings is ${maxWarnings}). Fix them or raise the limit.\n`,
    );
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

/** undefined when absent, NaN when not a whole number. */
function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

function explain(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return "its arrays or objects nest too deeply to check. A world nests a few levels; check that this is the right file.";
  return `${reasonOf(error)}. This is a Taleforge bug: please report it with the file.`;
}
