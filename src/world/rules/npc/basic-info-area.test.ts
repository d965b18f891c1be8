import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./basic-info-area.ts";

const ada = (currentArea: string, basicInfo: string) => ({
  npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea, basicInfo } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "its own area, any case", patch: ada("Millyard", "Sweeps the MILLYARD at dawn.") },
    { name: "part of a word is not a mention", patch: ada("Millyard", "Hates lofty talk and millyardsmen.") },
    { name: "areas of other locations do not count", patch: ada("Loft", "Once lived on a porch.") },
    {
      name: "a longer area name hides a shorter one inside it",
      patch: {
        locations: { "Old Mill": { areas: { "Loft Stairs": { description: "Steep.", paths: [] } } } },
        ...ada("Loft Stairs", "Sits on the loft stairs."),
      },
    },
  ],
  invalid: [
    {
      name: "example: another area of the location",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "basicInfo"],
          messageId: "other",
          data: { npc: '"Ada Reed"', area: '"Millyard"', location: '"Old Mill"', currentArea: '"Loft"' },
        },
      ],
    },
    {
      name: "no currentArea: each area once (same path, so ordered by message)",
      patch: ada("", "Walks from the loft to the Millyard and back to the loft."),
      errors: [
        {
          path: ["npcs", "Ada Reed", "basicInfo"],
          messageId: "noArea",
          data: { npc: '"Ada Reed"', area: '"Loft"', location: '"Old Mill"' },
        },
        {
          path: ["npcs", "Ada Reed", "basicInfo"],
          messageId: "noArea",
          data: { npc: '"Ada Reed"', area: '"Millyard"', location: '"Old Mill"' },
        },
      ],
    },
  ],
});
