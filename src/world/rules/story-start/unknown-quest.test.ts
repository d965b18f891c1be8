import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-quest.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "a known starting quest",
      patch: { storyStarts: { Morning: { startingQuests: ["Lost Sheep"] } } },
    },
    {
      name: "firstQuest is free text, never a quest key",
      patch: {
        storyStarts: { Morning: { firstQuest: "The first quest is to find the miller's lost sheep." } },
      },
    },
    { name: "an empty firstQuest", patch: { storyStarts: { Morning: { firstQuest: "" } } } },
  ],
  invalid: [
    {
      name: "example: a starting quest with a case slip",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "startingQuests", 0],
          messageId: "unknown",
          data: { quest: '"Lost sheep"', suggestion: ' Did you mean "Lost Sheep"?' },
        },
      ],
    },
    {
      name: "starting quests by index; firstQuest is not read",
      patch: {
        storyStarts: { Morning: { startingQuests: ["Lost Sheep", "Dragon Hunt"], firstQuest: "Sheep Lost" } },
      },
      errors: [
        {
          path: ["storyStarts", "Morning", "startingQuests", 1],
          messageId: "unknown",
          data: { quest: '"Dragon Hunt"', suggestion: "" },
        },
      ],
    },
  ],
});
