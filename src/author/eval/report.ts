import { conditionName } from "./conditions.ts";
import type { ConditionReport, EvalReport } from "./run.ts";

/** How many wrong or flaky cases the text report quotes per condition. */
const QUOTED = 3;

/** The report as text (docs/eval.md "Reading the report"). Text from outside is one line, without control characters. */
export function formatEval(report: EvalReport, world: string): string {
  const lines: string[] = [
    `Eval of ${clean(world)}: ${report.provider} (${clean(report.model)}), ${report.samples} sample${report.samples === 1 ? "" : "s"} per case`,
    "",
  ];
  for (const r of report.conditions) {
    lines.push(`${conditionName(r)}  ${r.type}: "${clip(r.query, 70)}"`);
    if (r.cases === 0) {
      lines.push("  no cases: write some (taleforge eval --init), or pin its verdict in a play-test", "");
      continue;
    }
    lines.push(`  ${figures(r)}`);
    const wrong = r.results.filter((c) => c.verdicts.some((v) => v !== null && v !== c.expect));
    for (const c of wrong.slice(0, QUOTED))
      lines.push(
        `  ✗ should ${c.expect ? "pass" : "fail"}: ${verdictsOf(c.verdicts)}  ${clip(c.action ?? c.story ?? "", 60)}  (${clean(c.source)})`,
      );
    if (wrong.length > QUOTED)
      lines.push(`  … and ${wrong.length - QUOTED} more wrong cases (--format json lists all)`);
    const failed = r.results.find((c) => c.error !== undefined);
    if (failed) lines.push(`  ! ${clip(failed.error!, 100)}`);
    lines.push("");
  }
  for (const u of report.unmatched) lines.push(`skipped ${clean(u.source)}: ${clean(u.reason)}`);
  if (report.unmatched.length > 0) lines.push("");
  const s = report.summary;
  lines.push(
    `Summary: ${report.conditions.length} AI-judged condition${report.conditions.length === 1 ? "" : "s"}, ${s.conditionsWithoutCases} without cases; ${s.cases} cases`,
    `  ${figures(s)}`,
    `  cost per case: ${s.cases > 0 ? `${round(s.calls / s.cases)} calls, ${Math.round((s.promptTokens + s.completionTokens) / s.cases)} tokens` : "-"}`,
    "",
  );
  return lines.join("\n");
}

function figures(
  r: Pick<
    ConditionReport,
    | "cases"
    | "verdicts"
    | "accuracy"
    | "falsePasses"
    | "falseFails"
    | "flaky"
    | "errors"
    | "promptTokens"
    | "completionTokens"
    | "ms"
  >,
): string {
  const accuracy = r.accuracy === null ? "-" : `${(r.accuracy * 100).toFixed(1)}%`;
  return [
    `accuracy ${accuracy} (${r.verdicts} verdicts)`,
    `false passes ${r.falsePasses}`,
    `false fails ${r.falseFails}`,
    `flaky ${r.flaky}/${r.cases}`,
    ...(r.errors > 0 ? [`errors ${r.errors}`] : []),
    `tokens ${r.promptTokens}+${r.completionTokens}`,
    `${Math.round(r.ms)} ms`,
  ].join(" · ");
}

function verdictsOf(verdicts: readonly (boolean | null)[]): string {
  return verdicts.map((v) => (v === null ? "?" : v ? "pass" : "fail")).join(",");
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function clip(text: string, max: number): string {
  const one = clean(text);
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** One line, control characters gone: case texts and model errors come from outside. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
}
