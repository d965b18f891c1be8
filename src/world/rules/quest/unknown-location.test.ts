import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-location.ts";

const detailed = (questLocation: string) => ({
  quests: { "Lost Sheep": { detailType: "detailed", spatialRelationship: undefined, questLocation } },
});

testRule(rule, {
  valid: [
    {},
    detailed("Old Mill"),
    detailed("Fen Hut"),
    { name: '"" is "not set" (issue 35)', patch: detailed("") },
  ],
  invalid: [
    {
      name: "a typo",
      patch: detailed("Fen hut"),
      errors: [
        {
          path: ["quests", "Lost Sheep", "questLocation"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', location: '"Fen hut"', suggestion: ' Did you mean "Fen Hut"?' },
        },
      ],
    },
    {
      name: "a region is not a location",
      patch: detailed("Southmarsh"),
      errors: [
        {
          path: ["quests", "Lost Sheep", "questLocation"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', location: '"Southmarsh"', suggestion: "" },
        },
      ],
    },
  ],
});
