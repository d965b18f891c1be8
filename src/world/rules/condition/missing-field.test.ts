import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./missing-field.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number, field: string) => ["triggers", "start_sheep", "conditions", index, field];

testRule(rule, {
  valid: [
    {},
    {
      name: "each type with the fields it needs",
      patch: conditions(
        { type: "player-resource", resource: "health", operator: "lessThan", value: 5 },
        { type: "known-entity", entity: "Ada Reed", operator: "equals", value: true },
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
        { type: "narrative-event-status", eventId: "flood", operator: "notEquals", value: "active" },
        { type: "read-array", key: "visited", operator: "contains", value: "Old Mill" },
        { type: "story", query: "The sheep are found." },
        { type: "action", query: "The player whistles.", embeddingId: "e1" },
      ),
    },
    {
      name: "wrong operator and value types are other rules' findings",
      patch: conditions({ type: "game-tick", operator: "contains", value: "1" }),
    },
    { name: "unknown types are skipped", patch: conditions({ type: "weather" }) },
  ],
  invalid: [
    {
      name: "the example: player-resource without resource",
      patch: conditions({ type: "player-resource", operator: "lessThan", value: 5 }),
      errors: [
        {
          path: at(0, "resource"),
          messageId: "missing",
          data: {
            type: "player-resource",
            field: "resource",
            hint: "the resource key from resourceSettings",
          },
        },
      ],
    },
    {
      name: "operator and value missing",
      patch: conditions({ type: "game-tick" }),
      errors: [
        {
          path: at(0, "operator"),
          messageId: "missing",
          data: {
            type: "game-tick",
            field: "operator",
            hint: "one of: equals, notEquals, greaterThan, lessThan, greaterThanOrEqual, lessThanOrEqual",
          },
        },
        {
          path: at(0, "value"),
          messageId: "missing",
          data: { type: "game-tick", field: "value", hint: "the number to compare with" },
        },
      ],
    },
    {
      name: "a story condition without query",
      patch: conditions({ type: "story", text: "The sheep are found." }),
      errors: [
        {
          path: at(0, "query"),
          messageId: "missing",
          data: { type: "story", field: "query", hint: "what the AI should judge, in plain words" },
        },
      ],
    },
    {
      name: "fields that are not strings",
      patch: conditions(
        { type: "read-number", key: 7, operator: "equals", value: 1 },
        { type: "quest-status", questId: ["Lost Sheep"], operator: 1, value: "accepted" },
        { type: "action", query: "x", embeddingId: 12 },
      ),
      errors: [
        {
          path: at(0, "key"),
          messageId: "notString",
          data: { type: "read-number", field: "key", hint: "the storage key", actual: "the number 7" },
        },
        {
          path: at(1, "questId"),
          messageId: "notString",
          data: {
            type: "quest-status",
            field: "questId",
            hint: "the quest's key in quests",
            actual: "an array",
          },
        },
        {
          path: at(1, "operator"),
          messageId: "notString",
          data: {
            type: "quest-status",
            field: "operator",
            hint: "one of: equals, notEquals",
            actual: "the number 1",
          },
        },
        {
          path: at(2, "embeddingId"),
          messageId: "notString",
          data: {
            type: "action",
            field: "embeddingId",
            hint: "assigned by the engine: omit it when authoring",
            actual: "the number 12",
          },
        },
      ],
    },
    {
      name: "null is not a missing value but a present one",
      patch: conditions({ type: "known-entity", entity: null, operator: "equals", value: null }),
      errors: [{ path: at(0, "entity"), messageId: "notString" }],
    },
  ],
});
