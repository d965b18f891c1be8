import { phaseOf } from "../../engine/index.ts";
import type { Phase } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";

/** One AI-judged condition of a world's trigger: what `taleforge eval` measures. */
export interface JudgedCondition {
  trigger: string;
  /** Its index in the trigger's `conditions`. */
  index: number;
  type: "story" | "action";
  query: string;
  /** The phase the trigger runs in (the judge is told). */
  phase: Phase;
}

/** Every AI-judged condition (`story`, `action`) of the world's triggers, in map order. */
export function judgedConditions(world: World): JudgedCondition[] {
  const out: JudgedCondition[] = [];
  for (const [trigger, definition] of Object.entries(world.triggers ?? {})) {
    const conditions = Array.isArray(definition.conditions) ? definition.conditions : [];
    conditions.forEach((c, index) => {
      if (c.type !== "story" && c.type !== "action") return;
      out.push({ trigger, index, type: c.type, query: String(c.query), phase: phaseOf(definition) });
    });
  }
  return out;
}

/** "read_logbook[1]": how reports name a condition. */
export function conditionName(c: Pick<JudgedCondition, "trigger" | "index">): string {
  return `${c.trigger}[${c.index}]`;
}
