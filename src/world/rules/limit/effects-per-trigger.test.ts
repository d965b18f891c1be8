import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./effects-per-trigger.ts";

const writes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    type: "write-number",
    key: `k${i}`,
    operator: "add",
    value: 1,
  }));
const trigger = (name: string, effects: unknown) => ({ [name]: { name, conditions: [], effects } });

testRule(rule, {
  valid: [
    {},
    { name: "five effects", patch: { triggers: trigger("five", writes(5)) } },
    {
      name: "narrative events' onCompleteEffects are outside the cap",
      patch: { narrativeEvents: { flood: { title: "Flood", beats: "b", onCompleteEffects: writes(8) } } },
    },
  ],
  invalid: [
    {
      name: "six effects",
      patch: { triggers: trigger("six", writes(6)) },
      errors: [
        { path: ["triggers", "six", "effects"], messageId: "count", data: { name: '"six"', count: 6 } },
      ],
    },
    {
      name: "several triggers over the cap",
      patch: {
        triggers: { ...trigger("a", writes(9)), ...trigger("b", writes(2)), ...trigger("c", writes(6)) },
      },
      errors: [
        { path: ["triggers", "a", "effects"], messageId: "count", data: { name: '"a"', count: 9 } },
        { path: ["triggers", "c", "effects"], messageId: "count", data: { name: '"c"', count: 6 } },
      ],
    },
  ],
});
