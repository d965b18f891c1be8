import assert from "node:assert/strict";
import { test } from "node:test";
import { diffStates } from "./diff.ts";
import { draftOf } from "./draft.ts";
import type { SessionState } from "./state.ts";

// A state-shaped value: draftOf copies by field name, so these fields are enough to exercise it.
const state = JSON.parse(
  '{"quests": {"__proto__": {"status": "hidden"}, "Q": {"status": "accepted", "objectives": [1, {"a": null}]}}, "storage": {"k": 1}, "rng": [1, 2]}',
) as SessionState;

test("the draft deep-copies what the engine changes in place, exactly as structuredClone would", () => {
  const draft = draftOf(state);
  assert.deepEqual(draft, structuredClone(state));
  assert.notEqual(draft.quests, state.quests);
  assert.ok(Object.hasOwn(draft.quests, "__proto__"), "a key named __proto__ stays an own key");
  assert.equal(Object.getPrototypeOf(draft.quests), Object.prototype);
  assert.equal(JSON.stringify(draft), JSON.stringify(state), "key order is kept");
});

test("the diff of a draft names each changed leaf with its own path", () => {
  const draft = draftOf(state) as unknown as {
    quests: Record<string, { status: string; objectives?: unknown[] }>;
  };
  draft.quests.Q!.status = "completed";
  draft.quests.Q!.objectives!.push(3);
  const diff = diffStates(state, draft);
  assert.deepEqual(diff, [
    { path: ["quests", "Q", "status"], before: "accepted", after: "completed" },
    { path: ["quests", "Q", "objectives", 2], after: 3 },
  ]);
});
