import { defineRule } from "../../rule.ts";
import {
  isSemanticTrigger,
  MAX_MECHANICAL_TRIGGERS,
  MAX_SEMANTIC_TRIGGERS,
} from "../../rules/limit/trigger-count.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

/** A map of `count` mechanical triggers, for the examples. */
function triggers(count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 1; i <= count; i++)
    out[`tick_${i}`] = {
      name: `tick_${i}`,
      conditions: [{ type: "game-tick", operator: "equals", value: i }],
      effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }],
    };
  return out;
}

/**
 * Whether a world is over the trigger caps of spec 8 (limit/trigger-count).
 * The play analysis of lint (reachability.ts) repeats its passes until
 * nothing grows, which on 100,000 triggers took minutes and 1.5 GB: a world
 * the engine refuses anyway is not analysed (issue 15 item 13).
 */
export function overTriggerLimits(raw: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!raw) return false;
  let semantic = 0;
  let mechanical = 0;
  for (const [, trigger] of entriesOf(raw.triggers)) {
    if (!isPlainObject(trigger)) continue;
    if (isSemanticTrigger(trigger)) semantic++;
    else mechanical++;
    if (semantic > MAX_SEMANTIC_TRIGGERS || mechanical > MAX_MECHANICAL_TRIGGERS) return true;
  }
  return false;
}

export default defineRule({
  code: "lint/over-limit",
  severity: "warning",
  description:
    "The world is over the trigger limits, so `lint` ran only the rules of `check` and not its play analysis.",
  why: "The lint rules follow what can happen in play, pass after pass over every trigger, which grows with the square of the trigger count. The engine refuses a world over the trigger limits (limit/trigger-count) anyway, so lint stops after that error instead of spending minutes and gigabytes on a world that cannot run. Bring the world within the limits and lint it again.",
  messages: {
    skipped:
      "The play analysis of lint was not run: the world is over the trigger limits (see limit/trigger-count). Bring it within {mechanical} mechanical and {semantic} semantic triggers, then lint again.",
  },
  // Built when asked (docs, tests), not when the module loads: 1,000 triggers that every check would build.
  get examples() {
    return {
      bad: { triggers: triggers(MAX_MECHANICAL_TRIGGERS + 1) },
      good: { triggers: triggers(MAX_MECHANICAL_TRIGGERS - 1) },
    };
  },
  check({ raw, report }) {
    if (!overTriggerLimits(raw)) return;
    report({
      path: ["triggers"],
      messageId: "skipped",
      data: { mechanical: MAX_MECHANICAL_TRIGGERS, semantic: MAX_SEMANTIC_TRIGGERS },
    });
  },
});
