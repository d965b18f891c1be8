import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./value-type.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number) => ["triggers", "start_sheep", "effects", index, "value"];

testRule(rule, {
  valid: [
    {},
    {
      name: "values of the right type for each operator",
      patch: effects(
        { type: "party-location", operator: "set", value: "Fen Hut" },
        { type: "player-resource", resource: "health", operator: "divide", value: 2 },
        { type: "player-traits", operator: "set", value: ["Brave", 3, true] },
        { type: "player-traits", operator: "remove", value: "Brave" },
        { type: "known-entity", entity: "Ada Reed", operator: "set", value: false },
        { type: "known-entity", entity: "Ada Reed", operator: "toggle" },
        { type: "known-entity", entity: "Ada Reed", operator: "toggle", value: true },
        { type: "write-array", key: "a", operator: "set", value: [] },
        { type: "write-array", key: "a", operator: "add", value: 1 },
        { type: "write-boolean", key: "b", operator: "set", value: true },
      ),
    },
    {
      name: "missing values and unknown operators are other rules' findings",
      patch: effects(
        { type: "write-number", key: "n", operator: "set" },
        { type: "write-number", key: "n", operator: "increment", value: "x" },
      ),
    },
  ],
  invalid: [
    {
      name: "write-array set takes an array",
      patch: effects({ type: "write-array", key: "visited", operator: "set", value: "Old Mill" }),
      errors: [
        {
          path: at(0),
          messageId: "notArray",
          data: {
            type: "write-array",
            operator: "set",
            actual: 'the string "Old Mill"',
            literal: '"Old Mill"',
            alternative: ', or use operator "add"/"remove" to change one element',
          },
        },
      ],
    },
    {
      name: "write-array add takes one element",
      patch: effects({
        type: "write-array",
        key: "visited",
        operator: "add",
        value: ["Old Mill", "Fen Hut"],
      }),
      errors: [
        {
          path: at(0),
          messageId: "notElement",
          data: {
            type: "write-array",
            operator: "add",
            alternative: ', or use operator "set" to replace the whole array',
          },
        },
      ],
    },
    {
      name: "bad array elements are reported one by one",
      patch: effects(
        { type: "player-traits", operator: "set", value: ["Brave", null, { name: "Calm" }] },
        { type: "write-array", key: "a", operator: "set", value: [[1]] },
      ),
      errors: [
        {
          path: [...at(0), 1],
          messageId: "element",
          data: { type: "player-traits", index: 1, actual: "null", expected: "a string, number or boolean" },
        },
        {
          path: [...at(0), 2],
          messageId: "element",
          data: {
            type: "player-traits",
            index: 2,
            actual: "an object",
            expected: "a string, number or boolean",
          },
        },
        { path: [...at(1), 0], messageId: "element" },
      ],
    },
    {
      name: "toggle ignores the value, but a non-boolean one breaks the effect",
      patch: effects(
        { type: "known-entity", entity: "Ada Reed", operator: "toggle", value: "yes" },
        { type: "write-boolean", key: "gate", operator: "toggle", value: 1 },
      ),
      errors: [
        { path: at(0), messageId: "toggle", data: { type: "known-entity", actual: 'the string "yes"' } },
        { path: at(1), messageId: "toggle", data: { type: "write-boolean", actual: "the number 1" } },
      ],
    },
    {
      name: "quoted numbers and booleans",
      patch: effects(
        { type: "player-resource", resource: "health", operator: "add", value: "5" },
        { type: "write-boolean", key: "gate", operator: "set", value: "TRUE" },
      ),
      errors: [
        {
          path: at(0),
          messageId: "quoted",
          data: {
            type: "player-resource",
            operator: "add",
            actual: 'the string "5"',
            expected: "a number",
            literal: "5",
          },
        },
        {
          path: at(1),
          messageId: "quoted",
          data: {
            type: "write-boolean",
            operator: "set",
            actual: 'the string "TRUE"',
            expected: "a boolean",
            literal: "true",
          },
        },
      ],
    },
    {
      name: "other wrong types",
      patch: effects(
        { type: "quest-init", operator: "set", value: 3 },
        { type: "write-number", key: "n", operator: "add", value: "lots" },
        { type: "known-entity", entity: "Ada Reed", operator: "set", value: null },
      ),
      errors: [
        {
          path: at(0),
          messageId: "wrongType",
          data: { type: "quest-init", operator: "set", actual: "the number 3", expected: "a string" },
        },
        {
          path: at(1),
          messageId: "wrongType",
          data: { type: "write-number", operator: "add", actual: 'the string "lots"', expected: "a number" },
        },
        {
          path: at(2),
          messageId: "wrongType",
          data: { type: "known-entity", operator: "set", actual: "null", expected: "a boolean" },
        },
      ],
    },
    {
      name: "narrative events' onCompleteEffects are checked too",
      patch: {
        narrativeEvents: {
          flood: {
            title: "Flood",
            beats: "b",
            onCompleteEffects: [{ type: "write-number", key: "floods", operator: "add", value: "1" }],
          },
        },
      },
      errors: [{ path: ["narrativeEvents", "flood", "onCompleteEffects", 0, "value"], messageId: "quoted" }],
    },
  ],
});
