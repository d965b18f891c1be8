import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-quest.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const SLUG_QUEST = {
  name: "Lost Sheep",
  questSource: "Ada Reed",
  questStatement: "Sheep are gone.",
  mainObjective: "Find them.",
  completionCondition: "Found.",
  detailType: "basic",
  spatialRelationship: "existingLocalArea",
};

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "every quest field names a key",
      patch: {
        ...conditions(
          { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
          { type: "quests-completed", operator: "contains", value: "Lost Sheep" },
        ),
        narrativeEvents: {
          storm: {
            title: "Storm",
            beats: "Rain.",
            onCompleteEffects: [{ type: "quest-complete", questId: "Lost Sheep" }],
          },
        },
      },
    },
    {
      name: "values of the wrong JSON type are left to the shape rules",
      patch: effects(
        { type: "quest-init", operator: "set", value: 3 },
        { type: "quest-progress", questId: null },
      ),
    },
    {
      name: "a questId on an effect type that has none is not a reference",
      patch: effects({ type: "write-string", key: "k", operator: "set", value: "x", questId: "nope" }),
    },
  ],
  invalid: [
    {
      name: "example: case differs from the key",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "unknown",
          data: { quest: '"lost sheep"', suggestion: ' Did you mean "Lost Sheep"?' },
        },
      ],
    },
    {
      name: "the quest's shown name instead of its key",
      patch: { quests: { "Lost Sheep": undefined, "lost-sheep": SLUG_QUEST } },
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', suggestion: ' Did you mean "lost-sheep"?' },
        },
      ],
    },
    {
      name: "conditions, quest effects and narrative event effects, in source order",
      patch: {
        triggers: {
          start_sheep: {
            conditions: [
              { type: "quest-status", questId: "Lost Shep", operator: "equals", value: "accepted" },
              { type: "quests-completed", operator: "notContains", value: "Dragon Hunt" },
            ],
            effects: [
              { type: "quest-next-step-set", questId: "Lost Sheep", text: "Look.", source: "objective" },
              { type: "quest-progress", questId: "Sheep" },
            ],
          },
        },
        narrativeEvents: {
          storm: {
            title: "Storm",
            beats: "Rain.",
            onCompleteEffects: [{ type: "quest-complete", questId: "x" }],
          },
        },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "questId"],
          messageId: "unknown",
          data: { quest: '"Lost Shep"', suggestion: ' Did you mean "Lost Sheep"?' },
        },
        {
          path: ["triggers", "start_sheep", "conditions", 1, "value"],
          messageId: "unknown",
          data: { quest: '"Dragon Hunt"', suggestion: "" },
        },
        { path: ["triggers", "start_sheep", "effects", 1, "questId"], messageId: "unknown" },
        { path: ["narrativeEvents", "storm", "onCompleteEffects", 0, "questId"], messageId: "unknown" },
      ],
    },
  ],
});
