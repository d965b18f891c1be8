import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./condition-value.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number) => ["triggers", "start_sheep", "conditions", index, "value"];

testRule(rule, {
  valid: [
    {},
    {
      name: "exactly 100 characters",
      patch: conditions({ type: "story-text", operator: "contains", value: "b".repeat(100) }),
    },
    {
      name: "numbers are not measured",
      patch: conditions({ type: "game-tick", operator: "equals", value: 1e300 }),
    },
  ],
  invalid: [
    {
      name: "101 characters",
      patch: conditions(
        { type: "action-text", operator: "regex", value: "b".repeat(101) },
        { type: "read-string", key: "k", operator: "equals", value: "short" },
        { type: "party-area", operator: "equals", value: "é".repeat(150) },
      ),
      errors: [
        { path: at(0), messageId: "length", data: { type: "action-text", length: 101 } },
        { path: at(2), messageId: "length", data: { type: "party-area", length: 150 } },
      ],
    },
  ],
});
