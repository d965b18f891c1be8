import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./storage-never-read.ts";

const WRITE = { type: "write-number", key: "sheep_lost", operator: "set", value: 12 };
const writes = (triggers: Record<string, unknown>, patch: Record<string, unknown> = {}) => ({
  ...patch,
  triggers: { counting: { name: "counting", conditions: [], effects: [WRITE] }, ...triggers },
});
const trigger = (name: string, conditions: unknown[], script?: string) => ({
  [name]: { name, conditions, effects: [], ...(script === undefined ? {} : { script }) },
});
const READ = { type: "read-number", key: "sheep_lost", operator: "greaterThan", value: 10 };

testRule(rule, {
  valid: [
    { name: "the base world", patch: {} },
    { name: "read by a condition", patch: writes(trigger("many", [READ])) },
    {
      name: "read by a condition of a trigger that can never fire: the author meant to read it",
      patch: writes(trigger("many", [READ, { type: "game-tick", operator: "lessThan", value: 0 }])),
    },
    {
      name: "read by a script",
      patch: writes(trigger("many", [], "if (storage.sheep_lost > 10) log('many');")),
    },
    {
      name: "read through check() in a script",
      patch: writes(trigger("many", [], 'log(check({ type: "read-number", key: "sheep_lost" }));')),
    },
    {
      name: "read by a condition of a trigger a script adds",
      patch: writes(
        trigger(
          "adder",
          [],
          'triggers.later = { name: "later", conditions: [{ type: "read-number", key: "sheep_lost", operator: "equals", value: 1 }], effects: [] };',
        ),
      ),
    },
    {
      name: "a script reads keys built at run time",
      patch: writes(trigger("dump", [], "for (const k of Object.keys(storage)) log(storage[k]);")),
    },
    {
      name: "a script reads through check() with a computed key",
      patch: writes(trigger("peek", [], 'log(check({ type: "read-number", key: pick() }));')),
    },
    {
      name: "written and read by the same script",
      patch: { triggers: trigger("count", [], "storage.n = (storage.n ?? 0) + 1;") },
    },
  ],
  invalid: [
    {
      name: "written by an effect, read nowhere",
      patch: writes({}),
      errors: [
        {
          path: ["triggers", "counting", "effects", 0, "key"],
          messageId: "unread",
          data: { key: '"sheep_lost"', suggestion: "" },
        },
      ],
    },
    {
      name: "written twice: one report, at the first write",
      patch: writes({ again: { name: "again", conditions: [], effects: [WRITE] } }),
      errors: [{ path: ["triggers", "counting", "effects", 0, "key"], messageId: "unread" }],
    },
    {
      name: "assigned by a script, read nowhere",
      patch: { triggers: trigger("remember", [], "storage.last_tick = check({ type: 'game-tick' });") },
      errors: [{ path: ["triggers", "remember", "script"], messageId: "unread" }],
    },
    {
      name: "written by a narrative event's completion",
      patch: {
        narrativeEvents: {
          Storm: {
            title: "Storm",
            beats: "Rain.",
            onCompleteEffects: [{ type: "write-boolean", key: "storm_over", operator: "set", value: true }],
          },
        },
      },
      errors: [{ path: ["narrativeEvents", "Storm", "onCompleteEffects", 0, "key"], messageId: "unread" }],
    },
    {
      name: "the reading side names it differently",
      patch: writes(trigger("many", [{ ...READ, key: "sheep_lots" }])),
      errors: [
        {
          path: ["triggers", "counting", "effects", 0, "key"],
          messageId: "unread",
          data: { key: '"sheep_lost"', suggestion: ' Did you mean "sheep_lots"?' },
        },
      ],
    },
  ],
});
