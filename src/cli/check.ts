import { validateWorld } from "../world/validate.ts";
import type { CliIo } from "./io.ts";
import { type ReportOptions, reportOnWorld } from "./world-report.ts";

export type CheckOptions = ReportOptions;

/**
 * `taleforge check <world|->`: reads a world, checks it (shape and every
 * rule), prints the report. Returns 0 when there is no error (and warnings
 * are within --max-warnings), 1 when the world has problems, 2 when it could
 * not be checked at all (bad option, missing or unreadable file).
 */
export function check(file: string, options: CheckOptions, io: CliIo): Promise<number> {
  return reportOnWorld(file, options, io, { verb: "check", run: (loaded) => validateWorld(loaded) });
}
