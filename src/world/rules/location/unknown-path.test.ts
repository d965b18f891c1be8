import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-path.ts";

testRule(rule, {
  valid: [
    {},
    { name: "a location without areas", patch: { locations: { "Fen Hut": { areas: undefined } } } },
    {
      name: "a path back to its own area",
      patch: { locations: { "Old Mill": { areas: { Loft: { paths: ["Millyard", "Loft"] } } } } },
    },
  ],
  invalid: [
    {
      name: "a near miss and an area of another location",
      patch: { locations: { "Old Mill": { areas: { Loft: { paths: ["millyard", "Porch"] } } } } },
      errors: [
        {
          path: ["locations", "Old Mill", "areas", "Loft", "paths", 0],
          messageId: "unknown",
          data: {
            path: "millyard",
            area: "Loft",
            location: "Old Mill",
            suggestion: ' Did you mean "Millyard"?',
          },
        },
        {
          path: ["locations", "Old Mill", "areas", "Loft", "paths", 1],
          messageId: "unknown",
          data: { path: "Porch", area: "Loft", location: "Old Mill", suggestion: "" },
        },
      ],
    },
  ],
});
