import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./missing-field.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number, field: string) => ["triggers", "start_sheep", "effects", index, field];

testRule(rule, {
  valid: [
    {},
    {
      name: "each type with the fields it needs",
      patch: effects(
        { type: "story", instruction: "Mention the rising river." },
        { type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "find" },
        {
          type: "quest-next-step-set",
          questId: "Lost Sheep",
          text: "Search the reeds.",
          source: "objective",
        },
        { type: "party-next-step-clear" },
        {
          type: "player-resource",
          resource: "health",
          operator: "add",
          value: 2,
          target: "satisfyingPlayers",
        },
        { type: "known-entity", entity: "Ada Reed", operator: "toggle" },
        { type: "write-boolean", key: "gate", operator: "toggle" },
      ),
    },
    {
      name: "toggle needs no value, so a value is optional while the operator is unknown",
      patch: effects({ type: "known-entity", entity: "Ada Reed", operator: "flip" }),
    },
    { name: "unknown types are skipped", patch: effects({ type: "teleport" }) },
  ],
  invalid: [
    {
      name: "quest-complete without questId",
      patch: effects({ type: "quest-complete" }),
      errors: [
        {
          path: at(0, "questId"),
          messageId: "missing",
          data: { type: "quest-complete", field: "questId", hint: "the quest's key in quests" },
        },
      ],
    },
    {
      name: "operator and value missing",
      patch: effects({ type: "player-resource", resource: "health" }),
      errors: [
        {
          path: at(0, "operator"),
          messageId: "missing",
          data: {
            type: "player-resource",
            field: "operator",
            hint: "one of: add, subtract, multiply, divide, set",
          },
        },
        {
          path: at(0, "value"),
          messageId: "missing",
          data: { type: "player-resource", field: "value", hint: "a number" },
        },
      ],
    },
    {
      name: "with an unknown operator, a value only every operator needs",
      patch: effects(
        { type: "write-array", key: "visited", operator: "push" },
        { type: "write-boolean", key: "gate", operator: "flip" },
      ),
      errors: [
        {
          path: at(0, "value"),
          messageId: "missing",
          data: {
            type: "write-array",
            field: "value",
            hint: "an array of strings, numbers or booleans; or a string, number or boolean",
          },
        },
      ],
    },
    {
      name: "a value needed by set but not by toggle",
      patch: effects(
        { type: "known-entity", entity: "Ada Reed", operator: "set" },
        { type: "write-array", key: "visited", operator: "add" },
      ),
      errors: [
        {
          path: at(0, "value"),
          messageId: "missing",
          data: { type: "known-entity", field: "value", hint: "a boolean" },
        },
        {
          path: at(1, "value"),
          messageId: "missing",
          data: { type: "write-array", field: "value", hint: "a string, number or boolean" },
        },
      ],
    },
    {
      name: "next-step effects without text and source",
      patch: effects({ type: "party-next-step-set" }),
      errors: [
        {
          path: at(0, "source"),
          messageId: "missing",
          data: {
            type: "party-next-step-set",
            field: "source",
            hint: 'one of "objective", "narrative-event"',
          },
        },
        {
          path: at(0, "text"),
          messageId: "missing",
          data: { type: "party-next-step-set", field: "text", hint: "the next-step hint shown to the party" },
        },
      ],
    },
    {
      name: "fields that are not strings, optional target included",
      patch: effects(
        { type: "story", instruction: ["Be brief."] },
        { type: "player-traits", operator: "add", value: "Brave", target: true },
      ),
      errors: [
        {
          path: at(0, "instruction"),
          messageId: "notString",
          data: {
            type: "story",
            field: "instruction",
            hint: "the one-time instruction for the narrator",
            actual: "an array",
          },
        },
        {
          path: at(1, "target"),
          messageId: "notString",
          data: {
            type: "player-traits",
            field: "target",
            hint: 'one of "allPlayers", "satisfyingPlayers"',
            actual: "the boolean true",
          },
        },
      ],
    },
    {
      name: "narrative events' onCompleteEffects are checked too",
      patch: {
        narrativeEvents: {
          flood: { title: "Flood", beats: "b", onCompleteEffects: [{ type: "narrative-event-start" }] },
        },
      },
      errors: [
        { path: ["narrativeEvents", "flood", "onCompleteEffects", 0, "eventId"], messageId: "missing" },
      ],
    },
  ],
});
