import type { ConditionTrace, TurnResult } from "../../engine/index.ts";
import { onTurn } from "../paint.ts";

/**
 * Why a trigger did not fire in a turn, in a few words, from the turn's
 * trace: so that a failed `fired:` expectation says what to look at. Empty
 * when the trace does not tell.
 */
export function whyNotFired(
  key: string,
  turn: TurnResult | null,
  consumedBefore: Readonly<Record<string, number>>,
): string {
  if (Object.hasOwn(consumedBefore, key))
    return `it already fired ${onTurn(consumedBefore[key]!)} and is not recurring`;
  if (!turn) return "";
  for (const phase of turn.trace.phases) {
    const excluded = phase.excluded.find((e) => e.trigger === key);
    if (excluded) return `excluded: ${excluded.reason}`;
    const t = phase.triggers.find((x) => x.trigger === key);
    if (!t) continue;
    const where = `${phase.phase} phase`;
    if (t.suppressed) return `${where}: no player satisfies it (scope: player)`;
    if (!t.mechanicalPassed) {
      const failed = t.conditions.filter((c) => !c.judged && c.passed !== true);
      const first = failed[0];
      const more = failed.length > 1 ? `, and ${failed.length - 1} more` : "";
      return first
        ? `${where}: condition ${first.index + 1} failed (${describe(first)})${more}`
        : `${where}: a condition failed`;
    }
    if (t.script?.setSkip) return `${where}: its script set skip`;
    if (t.candidate) {
      const pinned = t.conditions.some((c) => c.judged && c.pinned);
      if (t.verdict === "not among the top N") return `${where}: not among the top AI candidates`;
      return `${where}: ${pinned ? "pinned" : "AI"} verdict ${t.verdict ?? "missing"}`;
    }
    return `${where}: not fired`;
  }
  return "it was not evaluated this turn (not in the live trigger map)";
}

function describe(c: ConditionTrace): string {
  const operator = c.operator !== undefined ? ` ${c.operator}` : "";
  return `${c.type}${operator} ${short(c.expected)}, actual ${short(c.actual)}`;
}

function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? "nothing";
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
