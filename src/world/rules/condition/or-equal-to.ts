import { defineRule } from "../../rule.ts";
import { rawConditions } from "../triggers.ts";

const FIXES: Record<string, string> = {
  greaterThanOrEqualTo: "greaterThanOrEqual",
  lessThanOrEqualTo: "lessThanOrEqual",
};

export default defineRule({
  code: "condition/or-equal-to",
  severity: "error",
  description: "A condition uses `greaterThanOrEqualTo` or `lessThanOrEqualTo`.",
  why: "These spellings look right and are common in other tools, but the format rejects them with a hard error (docs/format.md, triggers). The correct operators end in `OrEqual`.",
  messages: {
    operator: 'Operator "{operator}" is not valid. Write "{fix}".',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThanOrEqualTo", value: 1 }] },
      },
    },
    good: {
      triggers: {
        start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThanOrEqual", value: 1 }] },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const operator = condition.operator;
      if (typeof operator !== "string" || !Object.hasOwn(FIXES, operator)) continue;
      report({
        path: [...path, "operator"],
        messageId: "operator",
        data: { operator, fix: FIXES[operator]! },
      });
    }
  },
});
