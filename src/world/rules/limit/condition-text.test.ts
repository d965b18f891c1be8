import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./condition-text.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number) => ["triggers", "start_sheep", "conditions", index, "query"];

testRule(rule, {
  valid: [
    {},
    { name: "exactly 1000 characters", patch: conditions({ type: "action", query: "a".repeat(1000) }) },
    {
      name: "an emoji counts as two UTF-16 code units",
      patch: conditions({ type: "story", query: "🐑".repeat(500) }),
    },
  ],
  invalid: [
    {
      name: "1001 characters",
      patch: conditions({ type: "story", query: "a".repeat(1001) }),
      errors: [{ path: at(0), messageId: "length", data: { type: "story", length: 1001 } }],
    },
    {
      name: "501 emoji are 1002 code units",
      patch: conditions(
        { type: "game-tick", operator: "equals", value: 1 },
        { type: "action", query: "🐑".repeat(501) },
      ),
      errors: [{ path: at(1), messageId: "length", data: { type: "action", length: 1002 } }],
    },
  ],
});
