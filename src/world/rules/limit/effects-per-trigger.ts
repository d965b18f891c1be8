import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export const MAX_EFFECTS_PER_TRIGGER = 5;

const writes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    type: "write-number",
    key: `step_${i}`,
    operator: "set",
    value: 1,
  }));

export default defineRule({
  code: "limit/effects-per-trigger",
  severity: "error",
  description: `A trigger has more than ${MAX_EFFECTS_PER_TRIGGER} effects.`,
  why: `Only the first ${MAX_EFFECTS_PER_TRIGGER} valid effects of a trigger apply when it fires; the rest are silently dropped at run time, also when a script adds them (docs/scripts.md and docs/rules.md, limit/). At publish time the extra effects are an error, so that none is lost unnoticed. Narrative events' \`onCompleteEffects\` are outside this cap (docs/engine.md).`,
  messages: {
    count: `Trigger {name} has {count} effects; at most ${MAX_EFFECTS_PER_TRIGGER} apply, and the ${MAX_EFFECTS_PER_TRIGGER + 1}th and later would be dropped at run time. Move the extra effects to a second trigger with the same conditions.`,
  },
  examples: {
    bad: { triggers: { start_sheep: { effects: writes(MAX_EFFECTS_PER_TRIGGER + 1) } } },
    good: { triggers: { start_sheep: { effects: writes(MAX_EFFECTS_PER_TRIGGER) } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || !Array.isArray(trigger.effects)) continue;
      const count = trigger.effects.length;
      if (count <= MAX_EFFECTS_PER_TRIGGER) continue;
      report({
        path: ["triggers", key, "effects"],
        messageId: "count",
        data: { name: JSON.stringify(key), count },
        related: [
          {
            path: ["triggers", key, "effects", MAX_EFFECTS_PER_TRIGGER],
            message: "the first effect that would be dropped",
          },
        ],
      });
    }
  },
});
