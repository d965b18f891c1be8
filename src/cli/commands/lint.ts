import { defineCommand } from "../command.ts";
import { REPORT_OPTIONS, reportExitCodes, WORLD_ARGUMENT } from "../report-spec.ts";
import type { ReportOptions } from "../world-report.ts";

export default defineCommand({
  name: "lint",
  summary: "Check a world, then find what silently breaks play: unreachable quests, dead triggers...",
  arguments: [WORLD_ARGUMENT],
  options: REPORT_OPTIONS,
  about: [
    "Runs every rule of check, then the lint/ rules (docs/rules.md), which report",
    "only what can never happen in play, whatever the player and the AI do.",
  ],
  exitCodes: reportExitCodes("linted"),
  exitCodesInHelp: "list",
  examples: [
    "taleforge lint examples/harbor.world.json",
    "taleforge lint --max-warnings 0 --format sarif my.world.json > taleforge.sarif",
    "cat my.world.json | taleforge lint -",
  ],
  footer: [
    "",
    "Lint cannot tell how well a model judges a `story` or `action` condition:",
    "measure that with taleforge eval (docs/eval.md: reading its report, wording a",
    "condition that judges well).",
  ],
  run: async ([world], options, io) =>
    (await import("../lint.ts")).lint(world as string, options as ReportOptions, io),
});
