import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./level-range.ts";

const range = (min: number, max: number) => ({ locations: { "Old Mill": { npcLevelRange: { min, max } } } });

testRule(rule, {
  valid: [{}, range(1, 1), range(2, 9)],
  invalid: [
    {
      name: "min above max",
      patch: range(9, 2),
      errors: [
        {
          path: ["locations", "Old Mill", "npcLevelRange"],
          messageId: "reversed",
          data: { owner: 'location "Old Mill"', min: 9, max: 2 },
        },
      ],
    },
    {
      name: "a zero minimum",
      patch: range(0, 3),
      errors: [
        {
          path: ["locations", "Old Mill", "npcLevelRange", "min"],
          messageId: "notPositiveInteger",
          data: { field: "min", owner: 'location "Old Mill"', value: 0 },
        },
      ],
    },
  ],
});
