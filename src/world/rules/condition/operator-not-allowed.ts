import { defineRule } from "../../rule.ts";
import { CONDITION_TYPES, isConditionType } from "../../schema/condition-table.ts";
import { didYouMean } from "../../suggest.ts";
import { rawConditions } from "../triggers.ts";

/** Reported by condition/or-equal-to with its fix; repeated here only when that fix would not be allowed either. */
const OR_EQUAL_TO: Record<string, string> = {
  greaterThanOrEqualTo: "greaterThanOrEqual",
  lessThanOrEqualTo: "lessThanOrEqual",
};

export default defineRule({
  code: "condition/operator-not-allowed",
  severity: "error",
  description: "A condition's `operator` is not one its type accepts.",
  why: "Each condition type takes its own operators (docs/format.md, triggers): numbers compare with `greaterThan` and friends, text with `contains` or `regex`, lists with `contains`/`notContains`, flags with `equals`/`notEquals`. Any other operator makes the condition invalid, so the trigger cannot fire as written.",
  messages: {
    operator:
      'Operator "{operator}" is not allowed for "{type}" conditions.{suggestion} Use one of: {allowed}.',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { conditions: [{ type: "game-tick", operator: "contains", value: 0 }] } },
    },
    good: {
      triggers: { start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }] } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const { type, operator } = condition;
      if (!isConditionType(type) || typeof operator !== "string") continue;
      const allowed: readonly string[] = CONDITION_TYPES[type].operators;
      // Types without operators (story, action) get an unknown-field warning from the shape step instead.
      if (allowed.length === 0 || allowed.includes(operator)) continue;
      const fix = Object.hasOwn(OR_EQUAL_TO, operator) ? OR_EQUAL_TO[operator] : undefined;
      if (fix !== undefined && allowed.includes(fix)) continue;
      report({
        path: [...path, "operator"],
        messageId: "operator",
        data: { operator, type, allowed: allowed.join(", "), suggestion: didYouMean(operator, allowed) },
      });
    }
  },
});
