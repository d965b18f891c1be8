import { inspectScript } from "../script/inspect.ts";
import { entriesOf, isPlainObject } from "../values.ts";

/**
 * How much of a world's trigger scripts lint could follow: a script is fully
 * analysed when every storage key it reads or writes is known (aliases,
 * defaults, destructuring and optional chaining are followed; see
 * script/aliases.ts) and every effect or trigger it makes is a literal. The
 * others make the storage rules assume "could read or write anything", so
 * authors are told how many there are and why.
 */
export interface ScriptCoverage {
  /** Triggers of the world (a world without any has no logic for lint to follow). */
  triggers: number;
  total: number;
  analysed: number;
  /** Why the others are not, counted: "use computed keys", "use storage as a value", "build effects at run time", "do not parse". */
  reasons: Map<string, number>;
}

export function scriptCoverage(raw: Readonly<Record<string, unknown>> | undefined): ScriptCoverage {
  const coverage: ScriptCoverage = { triggers: 0, total: 0, analysed: 0, reasons: new Map() };
  const count = (reason: string) => coverage.reasons.set(reason, (coverage.reasons.get(reason) ?? 0) + 1);
  for (const [, trigger] of entriesOf(raw?.triggers)) {
    coverage.triggers++;
    if (!isPlainObject(trigger) || typeof trigger.script !== "string" || trigger.script.trim() === "")
      continue;
    coverage.total++;
    const inspected = inspectScript(trigger.script);
    if (!inspected.ok) {
      count("do not parse");
      continue;
    }
    const { storage, effects } = inspected.analysis;
    if (!storage.dynamic && effects.opaque === null) {
      coverage.analysed++;
      continue;
    }
    const why = storage.dynamicWhy ?? [];
    if (why.includes("computed keys")) count("use computed keys");
    else if (why.includes("storage used as a value")) count("use storage as a value");
    else if (why.includes("a local named storage")) count("declare a local named storage");
    else count("build effects or triggers at run time");
  }
  return coverage;
}

/** "lint: 19/21 scripts analysed; 2 use computed keys", or why there is nothing to analyse. */
export function describeCoverage(coverage: ScriptCoverage): string {
  if (coverage.triggers === 0)
    return "lint: the world has no triggers, so there is no trigger logic or script to follow; every finding above comes from check.";
  if (coverage.total === 0)
    return `lint: 0 scripts (${coverage.triggers} trigger${coverage.triggers === 1 ? "" : "s"}, none with a script).`;
  const reasons = [...coverage.reasons].map(([reason, n]) => `${n} ${reason}`);
  return `lint: ${coverage.analysed}/${coverage.total} scripts analysed${reasons.length ? `; ${reasons.join(", ")}` : ""}.`;
}
