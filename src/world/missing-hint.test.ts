import assert from "node:assert/strict";
import { test } from "node:test";
import { checkValue } from "../../test/helpers/world.ts";
import { starterWorld } from "./starter.ts";

const missing = (value: unknown) =>
  checkValue(value)
    .diagnostics.filter((d) => d.code === "shape/missing-field")
    .map((d) => d.message);

test("a file with only the version fields: every missing section says its type, and objects their keys", () => {
  const messages = missing({ configVersion: "V33", heroesVersion: 33 });
  assert.ok(messages.length > 30);
  for (const message of messages) {
    assert.match(message, /Add it \((a |an |one of |true or false)/, message);
    assert.match(message, /, e\.g\. "[A-Za-z]+": \S/, `a one-line example: ${message}`);
  }
  const death = messages.find((m) => m.includes('"death"'))!;
  assert.match(death, /an object with required keys "permadeath", "instructions"/);
  assert.match(death, /e\.g\. "death": \{"permadeath":false,"instructions":"…"\}/);
  assert.match(messages.find((m) => m.includes('"realms"'))!, /use \{\} when it is empty/);
});

test("a nested missing field: its type and an example from the starter world", () => {
  const world = starterWorld() as Record<string, Record<string, Record<string, unknown>>>;
  delete world.regions!.Hollowmere!.x;
  delete world.skillSettings!.baseChanceToLearnNewSkill;
  delete (world.quests!["The Lost Flame"] as Record<string, unknown>).spatialRelationship;
  const messages = missing(world);
  assert.deepEqual(messages.sort(), [
    'Missing required field "baseChanceToLearnNewSkill" in skillSettings. Add it (a number), e.g. "baseChanceToLearnNewSkill": 0.3.',
    'Missing required field "spatialRelationship" in quests["The Lost Flame"]. Add it (one of "existingLocalArea", "newLocalArea", "nearbyNewLocation", "distantNewLocation", "existingLocationNewAreas"), e.g. "spatialRelationship": "nearbyNewLocation".',
    'Missing required field "x" in regions.Hollowmere. Add it (a number), e.g. "x": 0.',
  ]);
});
