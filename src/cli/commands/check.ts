import { defineCommand } from "../command.ts";
import { REPORT_OPTIONS, reportExitCodes, WORLD_ARGUMENT } from "../report-spec.ts";
import type { ReportOptions } from "../world-report.ts";

export default defineCommand({
  name: "check",
  summary: "Check a world file: its JSON, the shape of every section, and every rule.",
  arguments: [WORLD_ARGUMENT],
  options: REPORT_OPTIONS,
  exitCodes: reportExitCodes("checked"),
  exitCodesInHelp: "list",
  examples: [
    "taleforge check examples/harbor.world.json",
    "taleforge check --format sarif my.world.json > taleforge.sarif",
    "cat my.world.json | taleforge check -",
  ],
  run: async ([world], options, io) =>
    (await import("../check.ts")).check(world as string, options as ReportOptions, io),
});
