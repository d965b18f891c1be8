import { describeCoverage, scriptCoverage } from "../world/lint/coverage.ts";
import { lintWorld } from "../world/lint/index.ts";
import type { CliIo } from "./io.ts";
import { startProgress } from "./progress.ts";
import { type ReportOptions, reportOnWorld } from "./world-report.ts";

export type LintOptions = ReportOptions;

/**
 * From this many triggers, lint's play analysis takes long enough (seconds)
 * to show a progress bar, on a terminal only (cli/progress.ts).
 */
export const LONG_LINT_TRIGGERS = 500;

/**
 * `taleforge lint <world|->`: everything `check` reports, plus the lint rules
 * (src/world/lint/rules/), which follow what can happen in play to find what
 * silently breaks it: quests that can never become available, triggers whose
 * conditions can never hold or contradict each other, events never started,
 * storage keys never written or never read, moves to nowhere. Same formats,
 * options and exit codes as `check`. The stylish report ends with how many
 * trigger scripts were fully analysed (world/lint/coverage.ts).
 */
export async function lint(file: string, options: LintOptions, io: CliIo): Promise<number> {
  let value: Readonly<Record<string, unknown>> | undefined;
  let read = false;
  const code = await reportOnWorld(file, options, io, {
    verb: "lint",
    run: (loaded) => {
      read = true;
      value = loaded.value;
      const triggers = loaded.value?.triggers;
      const count = triggers !== null && typeof triggers === "object" ? Object.keys(triggers).length : 0;
      if (count < LONG_LINT_TRIGGERS) return lintWorld(loaded);
      const progress = startProgress(io, `linting ${count} triggers`, 1);
      try {
        return lintWorld(loaded, { onRule: progress.update });
      } finally {
        progress.stop();
      }
    },
  });
  if (read && value && (options.format ?? "stylish") === "stylish")
    io.stdout(`${describeCoverage(scriptCoverage(value))}\n`);
  return code;
}
