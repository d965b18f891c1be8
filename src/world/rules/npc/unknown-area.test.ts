import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-area.ts";

const ada = (currentLocation: string, currentArea: string) => ({
  npcs: { "Ada Reed": { currentLocation, currentArea } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "a blank area: no particular area", patch: ada("Old Mill", "") },
    {
      name: "a location without areas",
      patch: { ...ada("Fen Hut", "Anywhere"), locations: { "Fen Hut": { areas: undefined } } },
    },
    { name: "an unknown location is npc/unknown-location's", patch: ada("Old Mil", "Millyard") },
  ],
  invalid: [
    {
      name: "example: a spelling the location does not use",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentArea"],
          messageId: "unknown",
          data: {
            npc: '"Ada Reed"',
            area: '"Mill Yard"',
            location: '"Old Mill"',
            areas: '"Millyard", "Loft"',
            suggestion: ' Did you mean "Millyard"?',
          },
        },
      ],
    },
    {
      name: "an area of another location",
      patch: ada("Fen Hut", "Loft"),
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentArea"],
          messageId: "elsewhere",
          data: {
            npc: '"Ada Reed"',
            area: '"Loft"',
            owners: '"Old Mill"',
            location: '"Fen Hut"',
            areas: '"Porch"',
          },
        },
      ],
    },
  ],
});
