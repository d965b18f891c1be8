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
      name: "leftover areas beside one that matches are ignored, as the platform plays them (issue 35)",
      patch: start(["Old Mill"], ["Loft", "Porch", "Cellar"]),
    },
    { name: "leftovers with no locations listed", patch: start([], ["Porch", "Cellar"]) },
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
      patch: start(["Old Mill"], ["Porch"]),
      errors: [
        {
          path: ["storyStarts", "Morning", "locationAreas", 0],
          messageId: "elsewhere",
          data: { area: '"Porch"', owners: '"Fen Hut"', where: 'the story start\'s locations ("Old Mill")' },
        },
      ],
    },
    {
      name: "no locations and an area no location has",
      patch: start([], ["Cellar", ""]),
      errors: [
        {
          path: ["storyStarts", "Morning", "locationAreas", 0],
          messageId: "unknown",
          data: { area: '"Cellar"', where: "any location", suggestion: "" },
        },
      ],
    },
  ],
});
