import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./contradictory-conditions.ts";

const gatedOn = (conditions: unknown[], triggers: Record<string, unknown> = {}) => ({
  triggers: { gated: { name: "gated", conditions, effects: [] }, ...triggers },
});
const at = (index: number, trigger = "gated") => ["triggers", trigger, "conditions", index];
const tick = (operator: string, value: number) => ({ type: "game-tick", operator, value });
const ANY_NUMBER = {
  count: {
    name: "count",
    conditions: [],
    effects: [{ type: "write-number", key: "n", operator: "add", value: 1 }],
  },
};
const ANY_STRING = { script: { name: "script", conditions: [], effects: [], script: "storage.s = name();" } };

testRule(rule, {
  valid: [
    { name: "the base world", patch: {} },
    { name: "a window of ticks", patch: gatedOn([tick("greaterThan", 5), tick("lessThan", 9)]) },
    { name: "equals and another notEquals", patch: gatedOn([tick("equals", 3), tick("notEquals", 4)]) },
    {
      name: "bounds that leave one tick",
      patch: gatedOn([tick("greaterThanOrEqual", 3), tick("lessThanOrEqual", 3), tick("notEquals", 4)]),
    },
    {
      name: "player-resource holds when ANY member matches, so both can hold in a party",
      patch: gatedOn([
        { type: "player-resource", resource: "health", operator: "lessThan", value: 3 },
        { type: "player-resource", resource: "health", operator: "greaterThan", value: 5 },
      ]),
    },
    {
      name: "a stored number may fall between two bounds",
      patch: gatedOn(
        [
          { type: "read-number", key: "n", operator: "greaterThan", value: 5 },
          { type: "read-number", key: "n", operator: "lessThan", value: 6 },
        ],
        ANY_NUMBER,
      ),
    },
    {
      name: "different keys do not clash",
      patch: gatedOn(
        [
          { type: "read-number", key: "n", operator: "equals", value: 1 },
          { type: "read-number", key: "m", operator: "equals", value: 2 },
        ],
        ANY_NUMBER,
      ),
    },
    {
      name: "a location and one of its areas",
      patch: gatedOn([
        { type: "party-location", operator: "equals", value: "Old Mill" },
        { type: "party-area", operator: "equals", value: "Loft" },
      ]),
    },
    {
      name: "an objective trigger testing that its quest is accepted",
      patch: {
        triggers: {
          "Lost Sheep_objective": {
            name: "Lost Sheep_objective",
            conditions: [
              { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
            ],
            effects: [],
          },
        },
      },
    },
    {
      name: "a condition that never holds on its own is lint/never-true-condition's",
      patch: gatedOn([tick("lessThan", 0), tick("greaterThan", 4)]),
    },
  ],
  invalid: [
    {
      name: "equals 3 and greaterThan 5",
      patch: gatedOn([tick("equals", 3), tick("greaterThan", 5)]),
      errors: [
        {
          path: at(1),
          messageId: "clash",
          data: { condition: "game-tick greaterThan 5", others: "game-tick equals 3", trigger: '"gated"' },
        },
      ],
    },
    {
      name: "no whole tick between 5 and 6",
      patch: gatedOn([tick("greaterThan", 5), tick("lessThan", 6)]),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "only together: every tick below 2 is excluded",
      patch: gatedOn([tick("lessThan", 2), tick("notEquals", 0), tick("notEquals", 1)]),
      errors: [
        {
          path: at(2),
          messageId: "clash",
          data: {
            condition: "game-tick notEquals 1",
            others: "game-tick lessThan 2 and game-tick notEquals 0",
            trigger: '"gated"',
          },
        },
      ],
    },
    {
      name: "a stored number with two different values",
      patch: gatedOn(
        [
          { type: "read-number", key: "n", operator: "equals", value: 1 },
          { type: "read-number", key: "n", operator: "equals", value: 2 },
        ],
        ANY_NUMBER,
      ),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "a stored string equal to one value and not to it",
      patch: gatedOn(
        [
          { type: "read-string", key: "s", operator: "equals", value: "calm" },
          { type: "read-string", key: "s", operator: "notEquals", value: "calm" },
        ],
        ANY_STRING,
      ),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "a stored string containing a text and not a part of it",
      patch: gatedOn(
        [
          { type: "read-string", key: "s", operator: "contains", value: "Storm" },
          { type: "read-string", key: "s", operator: "notContains", value: "tor" },
        ],
        ANY_STRING,
      ),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "two statuses of one quest",
      patch: gatedOn([
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "available" },
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
      ]),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "two locations",
      patch: gatedOn([
        { type: "party-location", operator: "equals", value: "Old Mill" },
        { type: "party-location", operator: "equals", value: "Fen Hut" },
      ]),
      errors: [{ path: at(1), messageId: "clash" }],
    },
    {
      name: "an area of another location",
      patch: gatedOn([
        { type: "party-area", operator: "equals", value: "Loft" },
        { type: "game-tick", operator: "greaterThan", value: 0 },
        { type: "party-location", operator: "equals", value: "Fen Hut" },
      ]),
      errors: [
        {
          path: at(2),
          messageId: "area",
          data: {
            condition: 'party-location equals "Fen Hut"',
            others: 'party-area equals "Loft"',
            trigger: '"gated"',
          },
        },
      ],
    },
    {
      name: "an objective trigger that waits for another status of its own quest",
      patch: {
        triggers: {
          "Lost Sheep_objective": {
            name: "Lost Sheep_objective",
            conditions: [
              { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "available" },
            ],
            effects: [],
          },
        },
      },
      errors: [
        {
          path: at(0, "Lost Sheep_objective"),
          messageId: "objectiveGate",
          data: {
            condition: 'quest-status "Lost Sheep" equals "available"',
            trigger: '"Lost Sheep_objective"',
            quest: '"Lost Sheep"',
          },
        },
      ],
    },
    {
      name: "each clash is reported once, against the conditions kept",
      patch: gatedOn([tick("equals", 3), tick("equals", 4), tick("equals", 5)]),
      errors: [
        { path: at(1), messageId: "clash" },
        { path: at(2), messageId: "clash" },
      ],
    },
  ],
});
