import { testRule } from "../../../../test/helpers/world.ts";
import { CONDITION_TYPE_NAMES } from "../../schema/conditions.ts";
import rule from "./unknown-type.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number) => ["triggers", "start_sheep", "conditions", index, "type"];
const types = CONDITION_TYPE_NAMES.join(", ");

testRule(rule, {
  valid: [
    {},
    { name: "every condition type", patch: conditions(...CONDITION_TYPE_NAMES.map((type) => ({ type }))) },
    { name: "a missing or non-string type is left to the shape check", patch: conditions({}, { type: 5 }) },
  ],
  invalid: [
    {
      name: "a typo gets a suggestion",
      patch: conditions({ type: "game_tick", operator: "greaterThan", value: 0 }),
      errors: [
        {
          path: at(0),
          messageId: "unknown",
          data: { type: "game_tick", suggestion: ' Did you mean "game-tick"?', types },
        },
      ],
    },
    {
      name: "a name far from any type lists them all",
      patch: conditions({ type: "game-tick", operator: "greaterThan", value: 0 }, { type: "weather" }),
      errors: [{ path: at(1), messageId: "unknown", data: { type: "weather", suggestion: "", types } }],
    },
    {
      name: "an effect type written as a condition",
      patch: conditions({ type: "write-boolean", key: "gate", operator: "set", value: true }),
      errors: [
        {
          path: at(0),
          messageId: "effectType",
          data: { type: "write-boolean", suggestion: ' Did you mean "read-boolean"?' },
        },
      ],
    },
    {
      name: "case matters",
      patch: conditions(
        { type: "Story", query: "x" },
        { type: "story", query: "y" },
        { type: "ACTION", query: "z" },
      ),
      errors: [
        {
          path: at(0),
          messageId: "unknown",
          data: { type: "Story", suggestion: ' Did you mean "story"?', types },
        },
        {
          path: at(2),
          messageId: "unknown",
          data: { type: "ACTION", suggestion: ' Did you mean "action"?', types },
        },
      ],
    },
  ],
});
