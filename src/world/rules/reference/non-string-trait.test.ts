import { baseWorld, testRule } from "../../../../test/helpers/world.ts";
import rule from "./non-string-trait.ts";

const has = (value: unknown) => ({ type: "player-traits", operator: "notContains", value });
const change = (operator: string, value: unknown) => ({ type: "player-traits", operator, value });
const brave = () => (baseWorld().traits as Record<string, object>).Brave;
const triggers = (conditions: unknown[], effects: unknown[]) => ({
  triggers: { start_sheep: { conditions, effects } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "unknown string names are reference/unknown-trait's", patch: triggers([has("Coward")], []) },
    { name: "other types are the shape step's", patch: triggers([has(null)], [change("add", { a: 1 })]) },
  ],
  invalid: [
    {
      name: "example: a boolean in a condition",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "value"],
          messageId: "notAName",
          data: { actual: "the boolean true", example: "Brave" },
        },
      ],
    },
    {
      name: "numbers in effects, alone and in an array",
      patch: triggers([], [change("add", 7), change("set", ["Brave", 0])]),
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "notAName",
          data: { actual: "the number 7", example: "Brave" },
        },
        {
          path: ["triggers", "start_sheep", "effects", 1, "value", 1],
          messageId: "notAName",
          data: { actual: "the number 0", example: "Brave" },
        },
      ],
    },
    {
      name: "a trait keyed by the number's text is offered as the fix",
      patch: { traits: { "7": { ...brave(), name: "7" } }, ...triggers([has(7)], []) },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "value"],
          messageId: "notAName",
          data: { actual: "the number 7", example: "7" },
        },
      ],
    },
  ],
});
