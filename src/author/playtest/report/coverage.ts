import { painter } from "../../paint.ts";
import type { WorldCoverage } from "../coverage.ts";

/**
 * The coverage of the play-tests, per world: triggers fired (with counts) and
 * never fired, typed effects applied and never applied, and the statuses each
 * quest reached. A pure function of the coverage data.
 */
export function formatCoverage(coverage: readonly WorldCoverage[], options: { color: boolean }): string {
  const paint = painter(options.color);
  const blocks = coverage.map((w) => {
    const fired = w.triggers.filter((t) => t.fired > 0);
    const never = w.triggers.filter((t) => t.fired === 0);
    const applied = w.effects.filter((e) => e.applied > 0);
    const unapplied = w.effects.filter((e) => e.applied === 0);
    const completed = w.quests.filter((q) => q.reached.includes("completed"));
    const lines = [
      paint("bold", `Coverage of ${w.world}`),
      `  triggers  ${ratio(fired.length, w.triggers.length)} fired`,
      `  effects   ${ratio(applied.length, w.effects.length)} applied`,
      `  quests    ${ratio(completed.length, w.quests.length)} completed`,
      "",
      "  Triggers fired (turns):",
      ...wrap(
        fired.map((t) => `${t.trigger} ${paint("gray", `×${t.fired}`)}${origin(t.origin)}`),
        4,
      ),
      never.length === 0
        ? `  ${paint("green", "Every trigger fired.")}`
        : `  ${paint("red", `Never fired (${never.length}):`)}`,
      ...never.map((t) => `    ${t.trigger}${origin(t.origin)}`),
      unapplied.length === 0
        ? `  ${paint("green", "Every effect applied.")}`
        : `  ${paint("yellow", `Effects never applied (${unapplied.length}):`)}`,
      ...unapplied.map((e) => `    ${e.owner} effects[${e.index}] ${paint("gray", e.type)}`),
      "  Quest statuses reached:",
      ...w.quests.map((q) => `    ${q.quest}: ${q.reached.join(", ")}`),
    ];
    return lines.join("\n");
  });
  return blocks.length === 0 ? "No coverage: no play-test ran.\n" : `${blocks.join("\n\n")}\n`;
}

function ratio(part: number, whole: number): string {
  const percent = whole === 0 ? 100 : Math.floor((part / whole) * 100);
  return `${part}/${whole} (${percent}%)`;
}

function origin(kind: "world" | "engine" | "script"): string {
  return kind === "engine" ? " (engine-made)" : kind === "script" ? " (added by a script)" : "";
}

/** Items on lines of at most ~100 characters, indented. */
function wrap(items: string[], indent: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    const plain = item.replace(/\u001b\[[0-9;]*m/g, "");
    const current = line.replace(/\u001b\[[0-9;]*m/g, "");
    if (line !== "" && current.length + plain.length + 2 > 100 - indent) {
      lines.push(`${" ".repeat(indent)}${line},`);
      line = "";
    }
    line = line === "" ? item : `${line}, ${item}`;
  }
  if (line !== "") lines.push(`${" ".repeat(indent)}${line}`);
  return lines;
}
