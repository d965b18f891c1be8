import assert from "node:assert/strict";
import { test } from "node:test";
import { diffStates } from "./diff.ts";
import { draftOf, writableQuest } from "./draft.ts";
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
  const quest = writableQuest(draft.quests, "Q", draft.quests.Q!);
  quest.status = "completed";
  quest.objectives!.push(3);
  const diff = diffStates(state, draft);
  assert.deepEqual(diff, [
    { path: ["quests", "Q", "status"], before: "accepted", after: "completed" },
    { path: ["quests", "Q", "objectives", 2], after: 3 },
  ]);
});

/** A key named so, read as an own key (not the accessor). */
const PROTO: string = "__proto__";

test("quest states are copied on write: the previous state keeps its own, untouched ones are shared", () => {
  const draft = draftOf(state);
  const untouched = draft.quests[PROTO];
  assert.equal(untouched, state.quests[PROTO], "a quest the turn did not ask for is shared");
  const quest = writableQuest(draft.quests, "Q", draft.quests.Q!);
  assert.notEqual(quest, state.quests.Q, "the first write copies the state");
  assert.equal(writableQuest(draft.quests, "Q", quest), quest, "and only the first");
  quest.status = "completed";
  assert.equal(state.quests.Q!.status, "accepted", "the previous state is unchanged");
  assert.equal(draft.quests.Q, quest);
  const proto = writableQuest(draft.quests, PROTO, untouched!);
  assert.notEqual(proto, state.quests[PROTO]);
  assert.ok(
    Object.hasOwn(draft.quests, "__proto__") && draft.quests[PROTO] === proto,
    "__proto__ stays an own key",
  );
  assert.equal(Object.getPrototypeOf(draft.quests), Object.prototype);
  const whole = structuredClone(state);
  assert.equal(
    writableQuest(whole.quests, "Q", whole.quests.Q!),
    whole.quests.Q,
    "a state copied whole is written in place",
  );
});
