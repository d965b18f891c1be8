import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-region.ts";

testRule(rule, {
  valid: [
    {},
    {
      name: "a region with its own shape problem still exists",
      patch: { regions: { Hills: { name: "Hills" } }, locations: { "Fen Hut": { region: "Hills" } } },
    },
    {
      name: "skipped while regions is not an object",
      patch: { regions: [], locations: { "Fen Hut": { region: "Hills" } } },
    },
  ],
  invalid: [
    {
      patch: { locations: { "Old Mill": { region: "northfield" }, "Fen Hut": { region: "Hills" } } },
      errors: [
        {
          path: ["locations", "Old Mill", "region"],
          messageId: "unknown",
          data: { location: "Old Mill", region: "northfield", suggestion: ' Did you mean "Northfield"?' },
        },
        {
          path: ["locations", "Fen Hut", "region"],
          messageId: "unknown",
          data: { location: "Fen Hut", region: "Hills", suggestion: "" },
        },
      ],
    },
  ],
});
