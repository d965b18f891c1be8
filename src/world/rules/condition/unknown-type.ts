import { isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import { CONDITION_TYPE_NAMES, isConditionType } from "../../schema/condition-table.ts";
import { didYouMean } from "../../suggest.ts";
import { rawConditions } from "../triggers.ts";

export default defineRule({
  code: "condition/unknown-type",
  severity: "error",
  description: "A condition's `type` is not one of the 20 condition types.",
  why: "The engine has no way to evaluate a condition of an unknown type, so the trigger can never behave as written. Typos (`game_tick`, `playerLevel`) and effect types written as conditions (`quest-init`) are the usual causes.",
  messages: {
    unknown: 'Condition type "{type}" does not exist.{suggestion} Use one of: {types}.',
    effectType:
      '"{type}" is an effect type, not a condition type. Move this entry to the trigger\'s "effects", or use a condition type.{suggestion}',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { conditions: [{ type: "game_tick", operator: "greaterThan", value: 0 }] } },
    },
    good: {
      triggers: { start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }] } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const type = condition.type;
      // A missing or non-string type is a shape error, reported by the shape step.
      if (typeof type !== "string" || isConditionType(type)) continue;
      const suggestion = didYouMean(type, CONDITION_TYPE_NAMES);
      report({
        path: [...path, "type"],
        messageId: isEffectType(type) ? "effectType" : "unknown",
        data: { type, suggestion, types: CONDITION_TYPE_NAMES.join(", ") },
      });
    }
  },
});
