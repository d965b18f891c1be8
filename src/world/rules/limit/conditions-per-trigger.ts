import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export const MAX_CONDITIONS_PER_TRIGGER = 5;

const ticks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ type: "game-tick", operator: "notEquals", value: i + 100 }));

export default defineRule({
  code: "limit/conditions-per-trigger",
  severity: "error",
  description: `A trigger has more than ${MAX_CONDITIONS_PER_TRIGGER} conditions.`,
  why: `The engine allows at most ${MAX_CONDITIONS_PER_TRIGGER} conditions per trigger, at publish time and again at run time (docs/rules.md, limit/). Most triggers need 1-3. Longer chains of checks belong in several triggers linked through storage flags, or in the trigger's script.`,
  messages: {
    count: `Trigger {name} has {count} conditions; at most ${MAX_CONDITIONS_PER_TRIGGER} are allowed. Split it into chained triggers (one sets a flag with write-boolean, the next tests it with read-boolean), or test the extra conditions in its script with check() and set skip.`,
  },
  examples: {
    bad: { triggers: { start_sheep: { conditions: ticks(MAX_CONDITIONS_PER_TRIGGER + 1) } } },
    good: { triggers: { start_sheep: { conditions: ticks(MAX_CONDITIONS_PER_TRIGGER) } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || !Array.isArray(trigger.conditions)) continue;
      const count = trigger.conditions.length;
      if (count <= MAX_CONDITIONS_PER_TRIGGER) continue;
      report({
        path: ["triggers", key, "conditions"],
        messageId: "count",
        data: { name: JSON.stringify(key), count },
        related: [
          {
            path: ["triggers", key, "conditions", MAX_CONDITIONS_PER_TRIGGER],
            message: "the first condition over the limit",
          },
        ],
      });
    }
  },
});
