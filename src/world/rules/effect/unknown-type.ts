import { effectTypeNames, isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import { isConditionType } from "../../schema/condition-table.ts";
import { didYouMean } from "../../suggest.ts";
import { rawEffects } from "../triggers.ts";

export default defineRule({
  code: "effect/unknown-type",
  severity: "error",
  description: "An effect's `type` is not one of the effect types.",
  why: "The engine silently drops malformed effects at run time (docs/format.md, triggers), so an effect of an unknown type would do nothing and nobody would notice. At publish time it is an error. Typos and condition types written as effects (`read-boolean` instead of `write-boolean`) are the usual causes.",
  messages: {
    unknown:
      'Effect type "{type}" does not exist, so it would be dropped at run time.{suggestion} Use one of: {types}.',
    conditionType:
      '"{type}" is a condition type, not an effect type, so it would be dropped at run time. Move this entry to the trigger\'s "conditions", or use an effect type.{suggestion}',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { effects: [{ type: "quest_init", operator: "set", value: "Lost Sheep" }] } },
    },
    good: {
      triggers: { start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }] } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      const type = effect.type;
      // A missing or non-string type is a shape error, reported by the shape step.
      if (typeof type !== "string" || isEffectType(type)) continue;
      report({
        path: [...path, "type"],
        messageId: isConditionType(type) ? "conditionType" : "unknown",
        data: { type, suggestion: didYouMean(type, effectTypeNames()), types: effectTypeNames().join(", ") },
      });
    }
  },
});
