import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-objective.ts";

const objectives = {
  quests: {
    "Lost Sheep": {
      objectives: {
        pen: { id: "pen", text: "Mend the pen.", status: "hidden" },
        ewe: { id: "ewe", text: "Find the old ewe.", status: "hidden" },
      },
    },
  },
};
const effects = (...list: unknown[]) => ({ ...objectives, triggers: { start_sheep: { effects: list } } });
const reveal = (questId: unknown, objectiveId: unknown) => ({
  type: "quest-objective-reveal",
  questId,
  objectiveId,
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    effects(reveal("Lost Sheep", "pen"), {
      type: "quest-objective-complete",
      questId: "Lost Sheep",
      objectiveId: "ewe",
    }),
    { name: "an unknown quest is reference/unknown-quest's", patch: effects(reveal("Dragon Hunt", "pen")) },
    { name: "wrong JSON types are the shape step's", patch: effects(reveal("Lost Sheep", 3)) },
  ],
  invalid: [
    {
      name: "example: the quest has no objectives map",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "objectiveId"],
          messageId: "noObjectives",
          data: { quest: '"Lost Sheep"', objective: '"pen"' },
        },
      ],
    },
    {
      name: "a near objective key, also in narrative event effects",
      patch: {
        ...effects(reveal("Lost Sheep", "pens")),
        narrativeEvents: {
          storm: {
            title: "Storm",
            beats: "Rain.",
            onCompleteEffects: [
              { type: "quest-objective-complete", questId: "Lost Sheep", objectiveId: "ram" },
            ],
          },
        },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "objectiveId"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', objective: '"pens"', suggestion: ' Did you mean "pen"?' },
        },
        {
          path: ["narrativeEvents", "storm", "onCompleteEffects", 0, "objectiveId"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', objective: '"ram"', suggestion: "" },
        },
      ],
    },
  ],
});
