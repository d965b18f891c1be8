import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./non-integer-position.ts";

testRule(rule, {
  valid: [
    {},
    { name: "large and negative whole numbers", patch: { regions: { Southmarsh: { x: -1000, y: 2e6 } } } },
  ],
  invalid: [
    {
      patch: { regions: { Northfield: { x: 0.5, y: -1.25 } } },
      errors: [
        {
          path: ["regions", "Northfield", "x"],
          messageId: "fraction",
          data: { region: "Northfield", axis: "x", value: 0.5, rounded: 1 },
        },
        {
          path: ["regions", "Northfield", "y"],
          messageId: "fraction",
          data: { region: "Northfield", axis: "y", value: -1.25, rounded: -1 },
        },
      ],
    },
  ],
});
