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
  ],
  invalid: [
    {
      name: "example: firstQuest with a case slip",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "firstQuest"],
          messageId: "unknown",
          data: { quest: '"Lost sheep"', suggestion: ' Did you mean "Lost Sheep"?' },
        },
      ],
    },
    {
      name: "starting quests by index, then firstQuest",
      patch: {
        storyStarts: { Morning: { startingQuests: ["Lost Sheep", "Dragon Hunt"], firstQuest: "Sheep Lost" } },
      },
      errors: [
        {
          path: ["storyStarts", "Morning", "startingQuests", 1],
          messageId: "unknown",
          data: { quest: '"Dragon Hunt"', suggestion: "" },
        },
        { path: ["storyStarts", "Morning", "firstQuest"], messageId: "unknown" },
      ],
    },
  ],
});
