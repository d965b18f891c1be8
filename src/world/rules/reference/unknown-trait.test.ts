import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-trait.ts";

const has = (value: unknown) => ({ type: "player-traits", operator: "contains", value });
const change = (operator: string, value: unknown) => ({ type: "player-traits", operator, value });
const triggers = (conditions: unknown[], effects: unknown[]) => ({
  triggers: { start_sheep: { conditions, effects } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "a condition, a set with an array and a remove",
      patch: triggers(
        [has("Brave")],
        [change("set", ["Brave"]), change("remove", "Brave"), change("set", [])],
      ),
    },
    {
      name: "numbers and booleans are reference/non-string-trait's",
      patch: triggers([has(3)], [change("add", [true, 2])]),
    },
  ],
  invalid: [
    {
      name: "example: case differs",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "unknown",
          data: { trait: '"brave"', suggestion: ' Did you mean "Brave"?' },
        },
      ],
    },
    {
      name: "a condition, array elements by index, and a narrative event effect",
      patch: {
        ...triggers([has("Coward")], [change("set", ["Brave", "Bravee", 4, "Wise"])]),
        narrativeEvents: {
          storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [change("remove", "Wet")] },
        },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "value"],
          messageId: "unknown",
          data: { trait: '"Coward"', suggestion: "" },
        },
        {
          path: ["triggers", "start_sheep", "effects", 0, "value", 1],
          messageId: "unknown",
          data: { trait: '"Bravee"', suggestion: ' Did you mean "Brave"?' },
        },
        { path: ["triggers", "start_sheep", "effects", 0, "value", 3], messageId: "unknown" },
        { path: ["narrativeEvents", "storm", "onCompleteEffects", 0, "value"], messageId: "unknown" },
      ],
    },
  ],
});
