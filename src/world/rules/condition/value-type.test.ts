import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./value-type.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number) => ["triggers", "start_sheep", "conditions", index, "value"];
const QUEST_STATUSES = '"hidden", "available", "accepted", "completed", "abandoned", "rejected", "expired"';

testRule(rule, {
  valid: [
    {},
    {
      name: "a value of the right type for each kind",
      patch: conditions(
        { type: "game-tick", operator: "equals", value: 3 },
        { type: "player-traits", operator: "contains", value: "Brave" },
        { type: "read-array", key: "a", operator: "contains", value: 4 },
        { type: "read-array", key: "a", operator: "notContains", value: false },
        { type: "party-region", operator: "regex", value: "^North" },
        { type: "known-entity", entity: "Ada Reed", operator: "equals", value: false },
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "expired" },
        { type: "narrative-event-status", eventId: "flood", operator: "equals", value: "stopped" },
        { type: "read-boolean", key: "gate", operator: "equals", value: true },
      ),
    },
    {
      name: "a missing value is condition/missing-field's, and story conditions take none",
      patch: conditions(
        { type: "read-number", key: "n", operator: "equals" },
        { type: "story", query: "q", value: 3 },
      ),
    },
  ],
  invalid: [
    {
      name: "the string true in read-boolean",
      patch: conditions({ type: "read-boolean", key: "gate", operator: "equals", value: "true" }),
      errors: [
        {
          path: at(0),
          messageId: "quoted",
          data: { actual: 'the string "true"', type: "read-boolean", kind: "boolean", literal: "true" },
        },
      ],
    },
    {
      name: "quoted numbers and booleans",
      patch: conditions(
        { type: "game-tick", operator: "greaterThan", value: "0" },
        { type: "known-entity", entity: "Ada Reed", operator: "equals", value: "False" },
        { type: "player-level", operator: "equals", value: " 2.50 " },
      ),
      errors: [
        {
          path: at(0),
          messageId: "quoted",
          data: { actual: 'the string "0"', type: "game-tick", kind: "number", literal: "0" },
        },
        {
          path: at(1),
          messageId: "quoted",
          data: { actual: 'the string "False"', type: "known-entity", kind: "boolean", literal: "false" },
        },
        {
          path: at(2),
          messageId: "quoted",
          data: { actual: 'the string " 2.50 "', type: "player-level", kind: "number", literal: "2.5" },
        },
      ],
    },
    {
      name: "statuses outside the lists",
      patch: conditions(
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "Completed" },
        { type: "narrative-event-status", eventId: "flood", operator: "equals", value: "finished" },
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: 2 },
      ),
      errors: [
        {
          path: at(0),
          messageId: "status",
          data: {
            value: "Completed",
            type: "quest-status",
            statuses: QUEST_STATUSES,
            suggestion: ' Did you mean "completed"?',
          },
        },
        {
          path: at(1),
          messageId: "status",
          data: {
            value: "finished",
            type: "narrative-event-status",
            statuses: '"inactive", "active", "completed", "stopped"',
            suggestion: "",
          },
        },
        {
          path: at(2),
          messageId: "wrongType",
          data: { type: "quest-status", actual: "the number 2", expected: `one of ${QUEST_STATUSES}` },
        },
      ],
    },
    {
      name: "arrays where one element is compared",
      patch: conditions(
        { type: "player-traits", operator: "contains", value: ["Brave", "Calm"] },
        { type: "read-array", key: "a", operator: "contains", value: { x: 1 } },
      ),
      errors: [
        { path: at(0), messageId: "notElement", data: { type: "player-traits" } },
        {
          path: at(1),
          messageId: "wrongType",
          data: { type: "read-array", actual: "an object", expected: "a string, number or boolean" },
        },
      ],
    },
    {
      name: "numbers and null where text is compared",
      patch: conditions(
        { type: "party-location", operator: "equals", value: 5 },
        { type: "story-text", operator: "contains", value: null },
        { type: "game-tick", operator: "equals", value: "soon" },
      ),
      errors: [
        {
          path: at(0),
          messageId: "wrongType",
          data: { type: "party-location", actual: "the number 5", expected: "a string (in quotes)" },
        },
        {
          path: at(1),
          messageId: "wrongType",
          data: { type: "story-text", actual: "null", expected: "a string (in quotes)" },
        },
        {
          path: at(2),
          messageId: "wrongType",
          data: { type: "game-tick", actual: 'the string "soon"', expected: "a number (without quotes)" },
        },
      ],
    },
  ],
});
