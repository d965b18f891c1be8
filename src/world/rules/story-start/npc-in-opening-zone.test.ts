import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./npc-in-opening-zone.ts";

const ada = (currentLocation: string, currentArea: string) => ({
  npcs: { "Ada Reed": { currentLocation, currentArea } },
});
const start = (locations: string[], locationAreas: string[], extra: object = {}) => ({
  storyStarts: { Morning: { locations, locationAreas, ...extra } },
});
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
    { name: "another area of the opening location", patch: ada("Old Mill", "Loft") },
    {
      name: "the start's own party NPCs",
      patch: {
        ...ada("Old Mill", "Millyard"),
        ...start(["Old Mill"], ["Millyard"], { startingPartyNPCs: ["Ada Reed"] }),
      },
    },
    {
      name: "a start with no locations or areas opens anywhere",
      patch: { ...ada("Old Mill", "Millyard"), ...start([], []) },
    },
    { name: "an NPC with no area at a location that has areas", patch: ada("Old Mill", "") },
  ],
  invalid: [
    {
      name: "example: in the listed opening area",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentArea"],
          messageId: "inArea",
          data: { npc: '"Ada Reed"', place: '"Millyard" of "Old Mill"', starts: 'story start "Morning"' },
        },
      ],
    },
    {
      name: "no listed area matches: every area of the location opens",
      patch: { ...ada("Old Mill", "Loft"), ...start(["Old Mill"], ["Porch"]) },
      errors: [{ path: ["npcs", "Ada Reed", "currentArea"], messageId: "inArea" }],
    },
    {
      name: "an opening location without areas",
      patch: { ...start(["Fen Hut"], []), locations: { "Fen Hut": { areas: undefined } } },
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentLocation"],
          messageId: "atLocation",
          data: { npc: '"Ada Reed"', place: '"Fen Hut"', starts: 'story start "Morning"' },
        },
      ],
    },
    {
      name: "no locations: the named areas open, wherever they are",
      patch: start([], ["Porch"]),
      errors: [{ path: ["npcs", "Ada Reed", "currentArea"], messageId: "inArea" }],
    },
    {
      name: "one report per NPC, naming every start",
      patch: { ...ada("Old Mill", "Millyard"), storyStarts: { Evening: EVENING } },
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentArea"],
          messageId: "inArea",
          data: {
            npc: '"Ada Reed"',
            place: '"Millyard" of "Old Mill"',
            starts: 'story starts "Morning", "Evening"',
          },
        },
      ],
    },
  ],
});
