import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./starting-quests.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "startingQuests left out", patch: { storyStarts: { Morning: { startingQuests: undefined } } } },
  ],
  invalid: [
    {
      name: "example: one quest",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "startingQuests"],
          messageId: "listed",
          data: { start: '"Morning"', count: 1, quests: '"Lost Sheep"', first: '"Lost Sheep"' },
        },
      ],
    },
    {
      name: "one report per story start, even for names that do not exist",
      patch: {
        storyStarts: {
          Morning: { startingQuests: ["Lost Sheep", "Dragon Hunt"] },
          Evening: {
            name: "Evening",
            description: "Dusk.",
            storyStart: "The sun sets.",
            locations: [],
            locationAreas: [],
            startingQuests: ["Dragon Hunt"],
          },
        },
      },
      errors: [
        {
          path: ["storyStarts", "Morning", "startingQuests"],
          messageId: "listed",
          data: {
            start: '"Morning"',
            count: 2,
            quests: '"Lost Sheep", "Dragon Hunt"',
            first: '"Lost Sheep"',
          },
        },
        { path: ["storyStarts", "Evening", "startingQuests"], messageId: "listed" },
      ],
    },
  ],
});
