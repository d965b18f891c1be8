import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-location.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "several locations",
      patch: { storyStarts: { Morning: { locations: ["Old Mill", "Fen Hut"] } } },
    },
    {
      name: "no locations: a random start",
      patch: { storyStarts: { Morning: { locations: [], locationAreas: [] } } },
    },
  ],
  invalid: [
    {
      name: "example: a typo",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "locations", 0],
          messageId: "unknown",
          data: { start: '"Morning"', location: '"Old Mil"', suggestion: ' Did you mean "Old Mill"?' },
        },
      ],
    },
    {
      name: "each unknown entry by index; a region is not a location",
      patch: { storyStarts: { Morning: { locations: ["Fen Hut", "Northfield", "Castle"] } } },
      errors: [
        { path: ["storyStarts", "Morning", "locations", 1], messageId: "unknown" },
        {
          path: ["storyStarts", "Morning", "locations", 2],
          messageId: "unknown",
          data: { start: '"Morning"', location: '"Castle"', suggestion: "" },
        },
      ],
    },
  ],
});
