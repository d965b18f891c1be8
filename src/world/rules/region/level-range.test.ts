import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./level-range.ts";

const range = (min: number, max: number) => ({ regions: { Northfield: { npcLevelRange: { min, max } } } });

testRule(rule, {
  valid: [{}, range(1, 1), range(3, 40)],
  invalid: [
    {
      name: "min above max",
      patch: range(5, 2),
      errors: [
        {
          path: ["regions", "Northfield", "npcLevelRange"],
          messageId: "reversed",
          data: { owner: 'region "Northfield"', min: 5, max: 2 },
        },
      ],
    },
    {
      name: "zero and a fraction, not also reported as reversed",
      patch: range(0, 2.5),
      errors: [
        {
          path: ["regions", "Northfield", "npcLevelRange", "min"],
          messageId: "notPositiveInteger",
          data: { field: "min", owner: 'region "Northfield"', value: 0 },
        },
        {
          path: ["regions", "Northfield", "npcLevelRange", "max"],
          messageId: "notPositiveInteger",
          data: { field: "max", owner: 'region "Northfield"', value: 2.5 },
        },
      ],
    },
    {
      name: "negative max",
      patch: range(1, -3),
      errors: [{ path: ["regions", "Northfield", "npcLevelRange", "max"], messageId: "notPositiveInteger" }],
    },
  ],
});
