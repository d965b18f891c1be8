import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./conditions-per-trigger.ts";

const ticks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ type: "game-tick", operator: "notEquals", value: i }));
const trigger = (name: string, conditions: unknown) => ({ [name]: { name, conditions, effects: [] } });

testRule(rule, {
  valid: [
    {},
    { name: "five conditions", patch: { triggers: trigger("five", ticks(5)) } },
    {
      name: "conditions that are not an array are a shape error",
      patch: { triggers: trigger("odd", { a: 1 }) },
    },
  ],
  invalid: [
    {
      name: "six conditions",
      patch: { triggers: trigger("six", ticks(6)) },
      errors: [
        { path: ["triggers", "six", "conditions"], messageId: "count", data: { name: '"six"', count: 6 } },
      ],
    },
    {
      name: "malformed conditions count too",
      patch: { triggers: { ...trigger("a", [...ticks(5), 7, {}]), ...trigger("b", ticks(3)) } },
      errors: [
        { path: ["triggers", "a", "conditions"], messageId: "count", data: { name: '"a"', count: 7 } },
      ],
    },
  ],
});
