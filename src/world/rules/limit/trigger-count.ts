import { defineRule } from "../../rule.ts";
import { CONDITION_TYPE_NAMES, CONDITION_TYPES, type ConditionSpec } from "../../schema/condition-table.ts";
import { elementsOf, entriesOf, isPlainObject } from "../../values.ts";

export const MAX_SEMANTIC_TRIGGERS = 200;
export const MAX_MECHANICAL_TRIGGERS = 500;

/**
 * The AI-judged condition types, read once from the table: one set lookup per condition instead of
 * an own-key test and a read of the type's entry by a key that differs from condition to condition.
 */
const AI_JUDGED_TYPES: ReadonlySet<unknown> = new Set(
  CONDITION_TYPE_NAMES.filter((type) => (CONDITION_TYPES[type] as ConditionSpec).aiJudged === true),
);

/** Semantic: at least one AI-judged (`story` or `action`) condition (resolutions, "Triggers"). */
export function isSemanticTrigger(trigger: unknown): boolean {
  if (!isPlainObject(trigger)) return false;
  // A loop, not `some` with an arrow function: a closure made per call loses its optimised code
  // to the next full collection, so a server checking world after world compiled it again each time.
  const conditions = elementsOf(trigger.conditions);
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i];
    if (isPlainObject(c) && AI_JUDGED_TYPES.has(c.type)) return true;
  }
  return false;
}

/** A map of `count` semantic triggers, for the examples. */
function triggers(count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 1; i <= count; i++) {
    const name = `ask_${i}`;
    out[name] = {
      name,
      conditions: [{ type: "action", query: `The player asks about rumour ${i}.` }],
      effects: [],
    };
  }
  return out;
}

export default defineRule({
  code: "limit/trigger-count",
  severity: "error",
  description: `A world has more than ${MAX_MECHANICAL_TRIGGERS} mechanical or more than ${MAX_SEMANTIC_TRIGGERS} semantic triggers.`,
  why: "The engine caps the trigger map at publish time and again at run time (docs/rules.md, limit/). A trigger is semantic when at least one of its conditions is `story` or `action` (judged by the AI, the expensive kind); every other trigger, including ones with `story-text`/`action-text` or no conditions, is mechanical (docs/engine.md). Each cap is reported once, naming the counts.",
  messages: {
    semantic:
      'The world has {count} semantic triggers (with a "story" or "action" condition); at most {limit} are allowed. Remove or merge {excess} of them, or use exact mechanical conditions (story-text, action-text, read-*) where they suffice.',
    mechanical:
      'The world has {count} mechanical triggers (no "story" or "action" condition); at most {limit} are allowed. Remove or merge {excess} of them: one recurring trigger with a script can handle many similar cases.',
  },
  // Built when asked (docs, tests), not when the module loads: 400 triggers that every check would build.
  get examples() {
    return {
      bad: { triggers: triggers(MAX_SEMANTIC_TRIGGERS + 1) },
      good: { triggers: triggers(MAX_SEMANTIC_TRIGGERS) },
    };
  },
  check({ raw, report }) {
    const counts = { semantic: 0, mechanical: 0 };
    const firstOver: { semantic?: string; mechanical?: string } = {};
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger)) continue;
      const kind = isSemanticTrigger(trigger) ? "semantic" : "mechanical";
      const count = ++counts[kind];
      const limit = kind === "semantic" ? MAX_SEMANTIC_TRIGGERS : MAX_MECHANICAL_TRIGGERS;
      if (count === limit + 1) firstOver[kind] = key;
    }
    for (const kind of ["mechanical", "semantic"] as const) {
      const first = firstOver[kind];
      if (first === undefined) continue;
      const limit = kind === "semantic" ? MAX_SEMANTIC_TRIGGERS : MAX_MECHANICAL_TRIGGERS;
      report({
        path: ["triggers"],
        messageId: kind,
        data: { count: counts[kind], limit, excess: counts[kind] - limit },
        related: [{ path: ["triggers", first], message: `the first ${kind} trigger over the limit` }],
      });
    }
  },
});
