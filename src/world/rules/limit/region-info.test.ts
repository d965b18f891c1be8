import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./region-info.ts";

testRule(rule, {
  valid: [
    {},
    {
      name: "exactly 4000 characters each",
      patch: { regions: { Northfield: { basicInfo: "f".repeat(4000), hiddenInfo: "h".repeat(4000) } } },
    },
  ],
  invalid: [
    {
      name: "basicInfo over the limit",
      patch: { regions: { Northfield: { basicInfo: "f".repeat(4001) } } },
      errors: [
        {
          path: ["regions", "Northfield", "basicInfo"],
          messageId: "basicInfo",
          data: { name: '"Northfield"', length: 4001 },
        },
      ],
    },
    {
      name: "both fields of one region and one of another",
      patch: {
        regions: {
          Northfield: { basicInfo: "f".repeat(5000), hiddenInfo: "h".repeat(4500) },
          Southmarsh: { hiddenInfo: "h".repeat(4001) },
        },
      },
      errors: [
        { path: ["regions", "Northfield", "basicInfo"], messageId: "basicInfo" },
        {
          path: ["regions", "Northfield", "hiddenInfo"],
          messageId: "hiddenInfo",
          data: { name: '"Northfield"', length: 4500 },
        },
        { path: ["regions", "Southmarsh", "hiddenInfo"], messageId: "hiddenInfo" },
      ],
    },
  ],
});
