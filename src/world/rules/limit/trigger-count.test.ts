import assert from "node:assert/strict";
import { test } from "node:test";
import { checkPatch, testRule } from "../../../../test/helpers/world.ts";
import rule, { isSemanticTrigger } from "./trigger-count.ts";

/** `count` triggers named `prefix_N`, each with the given conditions. */
function many(prefix: string, count: number, conditions: (i: number) => unknown[]) {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++)
    out[`${prefix}_${i}`] = { name: `${prefix}_${i}`, conditions: conditions(i), effects: [] };
  return out;
}
const semantic = (count: number) =>
  many("ask", count, (i) => [
    { type: "game-tick", operator: "greaterThan", value: i },
    { type: i % 2 ? "story" : "action", query: `Rumour ${i}.` },
  ]);
// The base world already holds one mechanical trigger (start_sheep).
const mechanical = (count: number) =>
  many("tick", count, (i) =>
    i % 3 === 0
      ? []
      : [{ type: i % 3 === 1 ? "story-text" : "action-text", operator: "contains", value: `w${i}` }],
  );

testRule(rule, {
  valid: [
    {},
    { name: "exactly at both caps", patch: { triggers: { ...semantic(200), ...mechanical(499) } } },
  ],
  invalid: [
    {
      name: "one semantic trigger over the cap",
      patch: { triggers: semantic(201) },
      errors: [{ path: ["triggers"], messageId: "semantic", data: { count: 201, limit: 200, excess: 1 } }],
    },
    {
      name: "story-text, action-text and empty conditions count as mechanical",
      patch: { triggers: mechanical(500) },
      errors: [{ path: ["triggers"], messageId: "mechanical", data: { count: 501, limit: 500, excess: 1 } }],
    },
    {
      name: "each cap is reported once",
      patch: { triggers: { ...semantic(230), ...mechanical(520) } },
      errors: [
        { path: ["triggers"], messageId: "semantic", data: { count: 230, limit: 200, excess: 30 } },
        { path: ["triggers"], messageId: "mechanical", data: { count: 521, limit: 500, excess: 21 } },
      ],
    },
  ],
});

test("limit/trigger-count names the first trigger over the cap", () => {
  const [diagnostic] = checkPatch({ triggers: semantic(202) }, [rule]).diagnostics;
  assert.deepEqual(
    diagnostic?.related?.map((r) => r.path),
    [["triggers", "ask_200"]],
  );
});

test("limit/trigger-count: semantic means at least one story or action condition", () => {
  assert.equal(
    isSemanticTrigger({ conditions: [{ type: "story-text" }, { type: "action", query: "q" }] }),
    true,
  );
  assert.equal(isSemanticTrigger({ conditions: [{ type: "story-text" }, { type: "action-text" }] }), false);
  assert.equal(isSemanticTrigger({ conditions: [] }), false);
  assert.equal(isSemanticTrigger({ conditions: "story" }), false);
  assert.equal(isSemanticTrigger(null), false);
});
