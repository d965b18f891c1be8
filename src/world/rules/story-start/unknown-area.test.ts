import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-area.ts";

const start = (locations: string[], locationAreas: string[]) => ({
  storyStarts: { Morning: { locations, locationAreas } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "areas of two listed locations", patch: start(["Old Mill", "Fen Hut"], ["Loft", "Porch"]) },
    { name: "no locations: an area of any location", patch: start([], ["Porch"]) },
    { name: "no areas: any area of the location", patch: start(["Old Mill"], []) },
    {
      name: "an unknown location is story-start/unknown-location's",
      patch: start(["Old Mil"], ["Millyard"]),
    },
  ],
  invalid: [
    {
      name: "example: a spelling the location does not use",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "locationAreas", 0],
          messageId: "unknown",
          data: {
            area: '"Mill Yard"',
            where: 'the story start\'s locations ("Old Mill")',
            suggestion: ' Did you mean "Millyard"?',
          },
        },
      ],
    },
    {
      name: "an area of a location the start does not list",
      patch: start(["Old Mill"], ["Loft", "Porch"]),
      errors: [
        {
          path: ["storyStarts", "Morning", "locationAreas", 1],
          messageId: "elsewhere",
          data: { area: '"Porch"', owners: '"Fen Hut"', where: 'the story start\'s locations ("Old Mill")' },
        },
      ],
    },
    {
      name: "no locations and an area no location has",
      patch: start([], ["Porch", "Cellar"]),
      errors: [
        {
          path: ["storyStarts", "Morning", "locationAreas", 1],
          messageId: "unknown",
          data: { area: '"Cellar"', where: "any location", suggestion: "" },
        },
      ],
    },
  ],
});
