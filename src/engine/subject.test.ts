import assert from "node:assert/strict";
import { test } from "node:test";
import { subjectOf } from "./subject.ts";

test("a condition's subject is the first of its naming fields that holds a string", () => {
  assert.equal(
    subjectOf({ type: "read-boolean", key: "met_mara", operator: "equals", value: true }),
    "met_mara",
  );
  assert.equal(subjectOf({ type: "player-resource", resource: "health" }), "health");
  assert.equal(subjectOf({ type: "quest-status", questId: "The Keeper's Debt" }), "The Keeper's Debt");
  assert.equal(subjectOf({ type: "narrative-event-status", eventId: "storm" }), "storm");
  assert.equal(subjectOf({ type: "known-entity", entity: "Ada Reed" }), "Ada Reed");
  // key wins over the others; a field that is not a string is passed over.
  assert.equal(subjectOf({ key: "k", resource: "r" }), "k");
  assert.equal(subjectOf({ key: 3, resource: "r" }), "r");
  assert.equal(subjectOf({ type: "game-tick", operator: "equals", value: 1 }), undefined);
});
