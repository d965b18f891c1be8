import { lintWorld } from "../world/lint/index.ts";
import type { CliIo } from "./io.ts";
import { type ReportOptions, reportOnWorld } from "./world-report.ts";

export type LintOptions = ReportOptions;

/**
 * `taleforge lint <world|->`: everything `check` reports, plus the lint rules
 * (src/world/lint/rules/), which follow what can happen in play to find what
 * silently breaks it: quests that can never become available, triggers whose
 * conditions can never hold or contradict each other, events never started,
 * storage keys never written or never read, moves to nowhere. Same formats,
 * options and exit codes as `check`.
 */
export function lint(file: string, options: LintOptions, io: CliIo): Promise<number> {
  return reportOnWorld(file, options, io, { verb: "lint", run: lintWorld });
}
