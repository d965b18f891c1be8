import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./storage-never-written.ts";

const reads = (
  condition: Record<string, unknown>,
  triggers: Record<string, unknown> = {},
  patch: Record<string, unknown> = {},
) => ({
  ...patch,
  triggers: { gated: { name: "gated", conditions: [condition], effects: [] }, ...triggers },
});
const writes = (name: string, effects: unknown[], script?: string) => ({
  [name]: { name, conditions: [], effects, ...(script === undefined ? {} : { script }) },
});
const KEY = ["triggers", "gated", "conditions", 0, "key"];
const HEARD = { type: "read-boolean", key: "heard", operator: "equals", value: true };

testRule(rule, {
  valid: [
    { name: "the base world", patch: {} },
    {
      name: "written by a write-boolean effect",
      patch: reads(
        HEARD,
        writes("hear", [{ type: "write-boolean", key: "heard", operator: "set", value: true }]),
      ),
    },
    {
      name: "written only by a trigger that can never fire (lint/never-true-condition says so)",
      patch: reads(HEARD, {
        never: {
          name: "never",
          conditions: [{ type: "game-tick", operator: "lessThan", value: 0 }],
          effects: [{ type: "write-boolean", key: "heard", operator: "set", value: true }],
        },
      }),
    },
    { name: "assigned by a script", patch: reads(HEARD, writes("hear", [], "storage.heard = true;")) },
    {
      name: "pushed by a script as a literal effect",
      patch: reads(
        HEARD,
        writes("hear", [], 'effects.push({ type: "write-boolean", key: "heard", operator: "toggle" });'),
      ),
    },
    {
      name: "a script writes keys built at run time",
      patch: reads(HEARD, writes("hear", [], "storage[pick()] = true;")),
    },
    {
      name: "written by a narrative event's completion",
      patch: reads(
        HEARD,
        {},
        {
          narrativeEvents: {
            Storm: {
              title: "Storm",
              beats: "Rain.",
              onCompleteEffects: [{ type: "write-boolean", key: "heard", operator: "set", value: true }],
            },
          },
        },
      ),
    },
    {
      name: "written by a trigger a script adds",
      patch: reads(
        HEARD,
        writes(
          "adder",
          [],
          'triggers.later = { name: "later", conditions: [], effects: [{ type: "write-boolean", key: "heard", operator: "set", value: true }] };',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: "never written, and the fallback fails the condition",
      patch: reads(HEARD),
      errors: [
        {
          path: KEY,
          messageId: "neverHolds",
          data: {
            key: '"heard"',
            aKind: "a boolean",
            kind: "boolean",
            fallback: "false",
            trigger: '"gated"',
            suggestion: "",
          },
        },
      ],
    },
    {
      name: "never written, and the fallback always passes",
      patch: reads({ type: "read-number", key: "visits", operator: "lessThan", value: 3 }),
      errors: [
        {
          path: KEY,
          messageId: "alwaysFallback",
          data: { key: '"visits"', aKind: "a number", kind: "number", fallback: "0", suggestion: "" },
        },
      ],
    },
    {
      name: "a near name is written",
      patch: reads(
        HEARD,
        writes("hear", [{ type: "write-boolean", key: "heard_it", operator: "set", value: true }]),
      ),
      errors: [
        {
          path: KEY,
          messageId: "neverHolds",
          data: {
            key: '"heard"',
            aKind: "a boolean",
            kind: "boolean",
            fallback: "false",
            trigger: '"gated"',
            suggestion: ' Did you mean "heard_it"?',
          },
        },
      ],
    },
    {
      name: "written as a string, read as a number",
      patch: reads(
        { type: "read-number", key: "mood", operator: "equals", value: 1 },
        writes("sulk", [{ type: "write-string", key: "mood", operator: "set", value: "grim" }]),
      ),
      errors: [
        {
          path: KEY,
          messageId: "wrongType",
          data: { key: '"mood"', aKind: "a number", written: "a string", fallback: "0" },
        },
      ],
    },
    {
      name: "an array never written",
      patch: reads({ type: "read-array", key: "seen", operator: "contains", value: "fox" }),
      errors: [{ path: KEY, messageId: "neverHolds" }],
    },
    {
      name: "a script that only reads the key does not write it",
      patch: reads(HEARD, writes("look", [], "if (storage.heard) log('heard');")),
      errors: [{ path: KEY, messageId: "neverHolds" }],
    },
  ],
});
