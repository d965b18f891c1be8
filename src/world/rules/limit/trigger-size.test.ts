import assert from "node:assert/strict";
import { test } from "node:test";
import { baseWorld, testRule } from "../../../../test/helpers/world.ts";
import rule, { compactJsonSize, MAX_TRIGGER_SIZE } from "./trigger-size.ts";

const baseTrigger = (baseWorld().triggers as Record<string, unknown>).start_sheep;
const baseSize = JSON.stringify(baseTrigger).length;
/** A script that brings start_sheep to exactly `size` characters of compact JSON. */
const scriptFor = (size: number) => "x".repeat(size - baseSize - ',"script":""'.length);
const sized = (size: number) => ({ triggers: { start_sheep: { script: scriptFor(size) } } });

/** As sized, with the script's last characters quotes (2 characters each in compact JSON, 1 counted without escapes). */
const sizedWithQuotes = (size: number, quotes: number) => ({
  triggers: { start_sheep: { script: scriptFor(size - quotes).slice(quotes) + '"'.repeat(quotes) } },
});

testRule(rule, {
  valid: [
    {},
    { name: "exactly at the limit", patch: sized(MAX_TRIGGER_SIZE) },
    { name: "exactly at the limit with escapes", patch: sizedWithQuotes(MAX_TRIGGER_SIZE, 3) },
  ],
  invalid: [
    {
      name: "one character over",
      patch: sized(MAX_TRIGGER_SIZE + 1),
      errors: [
        {
          path: ["triggers", "start_sheep"],
          messageId: "size",
          data: { name: '"start_sheep"', size: MAX_TRIGGER_SIZE + 1, excess: 1 },
        },
      ],
    },
    {
      name: "one character over by an escape, within the limit counted without escapes",
      patch: sizedWithQuotes(MAX_TRIGGER_SIZE + 1, 3),
      errors: [
        {
          path: ["triggers", "start_sheep"],
          messageId: "size",
          data: { name: '"start_sheep"', size: MAX_TRIGGER_SIZE + 1, excess: 1 },
        },
      ],
    },
    {
      name: "escapes count as written in compact JSON (a quote is 2 characters)",
      patch: {
        triggers: { start_sheep: { script: '"'.repeat(Math.ceil((MAX_TRIGGER_SIZE - baseSize) / 2)) } },
      },
      errors: [{ path: ["triggers", "start_sheep"], messageId: "size" }],
    },
    {
      name: "only oversized triggers, by key",
      patch: {
        triggers: {
          big_story: {
            name: "big_story",
            conditions: [],
            effects: [{ type: "story", instruction: "s".repeat(11000) }],
          },
        },
      },
      errors: [{ path: ["triggers", "big_story"], messageId: "size" }],
    },
  ],
});

test("limit/trigger-size measures what JSON can hold and nothing else", () => {
  assert.equal(compactJsonSize({ a: "b" }), 9);
  assert.equal(compactJsonSize({ n: 10n }), undefined);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(compactJsonSize(cycle), undefined);
});
