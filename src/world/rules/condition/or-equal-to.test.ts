import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./or-equal-to.ts";

const tick = (operator: string) => ({
  triggers: { start_sheep: { conditions: [{ type: "game-tick", operator, value: 1 }] } },
});

testRule(rule, {
  valid: [tick("greaterThanOrEqual"), tick("lessThanOrEqual")],
  invalid: [
    {
      patch: tick("greaterThanOrEqualTo"),
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "operator"],
          messageId: "operator",
          data: { operator: "greaterThanOrEqualTo", fix: "greaterThanOrEqual" },
        },
      ],
    },
    {
      patch: {
        triggers: {
          start_sheep: {
            conditions: [{ type: "read-number", key: "sheep", operator: "lessThanOrEqualTo", value: 3 }],
          },
        },
      },
      errors: [{ path: ["triggers", "start_sheep", "conditions", 0, "operator"], messageId: "operator" }],
    },
  ],
});
