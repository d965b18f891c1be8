import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./path-to-npc.ts";

const ada = (currentLocation: string, currentArea: string) => ({
  npcs: { "Ada Reed": { currentLocation, currentArea } },
});
const BRAN = { name: "Bran", type: "human", currentLocation: "Old Mill", currentArea: "Loft" };
const EVENING = {
  name: "Evening",
  description: "Dusk.",
  storyStart: "The sun sets.",
  locations: ["Old Mill"],
  locationAreas: ["Millyard"],
};

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "the start's own party NPCs",
      patch: { ...ada("Old Mill", "Loft"), storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } } },
    },
    {
      name: "a path inside the zone is npc-in-opening-zone's",
      patch: {
        ...ada("Old Mill", "Loft"),
        storyStarts: { Morning: { locationAreas: ["Millyard", "Loft"] } },
      },
    },
    {
      name: "paths out of areas that are not in the zone",
      patch: {
        ...ada("Old Mill", "Millyard"),
        storyStarts: { Morning: { locationAreas: ["Porch"], locations: ["Fen Hut"] } },
      },
    },
  ],
  invalid: [
    {
      name: "example: one step from the opening area",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["locations", "Old Mill", "areas", "Millyard", "paths", 0],
          messageId: "path",
          data: {
            from: '"Millyard"',
            to: '"Loft"',
            starts: 'story start "Morning"',
            who: 'NPC "Ada Reed" stands',
            them: "it",
          },
        },
      ],
    },
    {
      name: "one report per path entry, naming every NPC and start",
      patch: {
        npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Loft" }, Bran: BRAN },
        storyStarts: { Evening: EVENING },
        locations: { "Old Mill": { areas: { Millyard: { paths: ["Gate", "Loft"] } } } },
      },
      errors: [
        {
          path: ["locations", "Old Mill", "areas", "Millyard", "paths", 1],
          messageId: "path",
          data: {
            from: '"Millyard"',
            to: '"Loft"',
            starts: 'story starts "Morning", "Evening"',
            who: 'NPCs "Ada Reed", "Bran" stand',
            them: "them",
          },
        },
      ],
    },
  ],
});
