import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { baseWorld, checkValue } from "../../test/helpers/world.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { RULES } from "./rules/index.ts";
import {
  CONDITION_SCHEMAS,
  CONDITION_TYPE_NAMES,
  EVENT_STATUSES,
  isConditionType,
  NUMERIC_OPERATORS,
  QUEST_STATUSES,
  TEXT_OPERATORS,
} from "./schema/conditions.ts";
import { EFFECT_TYPE_NAMES, parseEffect } from "./schema/effects.ts";
import type { World } from "./schema/world.ts";
import { TRIGGER_MAP_RULES, validateTriggerMap } from "./trigger-map.ts";

const world = checkValue(baseWorld()).world as World;
assert.ok(world, "the base world is valid");

const trigger = (name: string, conditions: unknown[], effects: unknown[] = [], extra = {}) => ({
  name,
  conditions,
  effects,
  ...extra,
});
const tick = { type: "game-tick", operator: "greaterThan", value: 0 };
const ask = (i: number) =>
  trigger(`ask_${i}`, [{ type: "action", query: `The player asks about rumour ${i}.` }]);
const withTriggers = (...list: { name: string }[]) => ({
  ...world.triggers,
  ...Object.fromEntries(list.map((t) => [t.name, t])),
});
const errors = (diagnostics: Diagnostic[]) =>
  diagnostics.filter((d) => d.severity === "error").map((d) => ({ code: d.code, path: d.path }));

test("a valid edit of the trigger map gives no diagnostics", () => {
  const edited = withTriggers(
    trigger(
      "gate_opens",
      [tick, { type: "read-boolean", key: "gate", operator: "equals", value: true }],
      [
        { type: "story", instruction: "The gate creaks open." },
        { type: "write-array", key: "opened", operator: "add", value: "gate" },
      ],
    ),
  );
  assert.deepEqual(validateTriggerMap(world, edited), []);
  assert.deepEqual(validateTriggerMap(world, {}), [], "deleting every trigger is valid");
});

test("an oversized trigger is an error", () => {
  const edited = withTriggers(trigger("big", [tick], [], { script: `// ${"x".repeat(10100)}` }));
  assert.deepEqual(errors(validateTriggerMap(world, edited)), [
    { code: "limit/trigger-size", path: ["triggers", "big"] },
  ]);
});

test("a malformed condition or effect is an error", () => {
  const edited = withTriggers(
    trigger(
      "broken",
      [{ type: "read-boolean", key: "gate", operator: "equals", value: "true" }],
      [{ type: "quest-complete" }],
    ),
  );
  assert.deepEqual(errors(validateTriggerMap(world, edited)), [
    { code: "condition/value-type", path: ["triggers", "broken", "conditions", 0, "value"] },
    { code: "effect/missing-field", path: ["triggers", "broken", "effects", 0, "questId"] },
  ]);
});

test("the 201st semantic trigger is an error; the 200th is not", () => {
  const asks = Array.from({ length: 201 }, (_, i) => ask(i));
  assert.deepEqual(validateTriggerMap(world, withTriggers(...asks.slice(0, 200))), []);
  assert.deepEqual(errors(validateTriggerMap(world, withTriggers(...asks))), [
    { code: "limit/trigger-count", path: ["triggers"] },
  ]);
});

test("shape problems of the map are reported, as at publish time", () => {
  assert.deepEqual(errors(validateTriggerMap(world, [])), [{ code: "shape/wrong-type", path: ["triggers"] }]);
  assert.deepEqual(errors(validateTriggerMap(world, undefined)), [
    { code: "shape/missing-field", path: ["triggers"] },
  ]);
  assert.deepEqual(errors(validateTriggerMap(world, { t: { name: "t", conditions: {}, effects: [] } })), [
    { code: "shape/wrong-type", path: ["triggers", "t", "conditions"] },
  ]);
});

test("a map JSON cannot hold is reported, not thrown", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  let deep: unknown = "q";
  for (let i = 0; i < 20_000; i++) deep = [deep];
  const odd = [
    cycle,
    { t: { name: "t", conditions: [], effects: [], recurring: 1n } },
    () => ({}),
    { t: deep },
  ];
  for (const map of odd) {
    const found = validateTriggerMap(world, map);
    assert.deepEqual(errors(found), [{ code: "shape/wrong-type", path: ["triggers"] }]);
    assert.match(
      found[0]!.message,
      /^"triggers" must be JSON data, but it is a value JSON cannot hold \([^\n]+\)\.$/,
    );
  }
});

test("only diagnostics about triggers are returned", () => {
  const odd = {
    ...world,
    narrativeEvents: { flood: { title: "Flood", beats: "b", onCompleteEffects: [{ type: "teleport" }] } },
    traits: { Brave: { ...world.traits.Brave!, description: "e".repeat(5000), colour: "red" } },
  } as unknown as World;
  assert.deepEqual(validateTriggerMap(odd, world.triggers), []);
});

test("the caller's trigger map is neither changed nor frozen", () => {
  const edited = withTriggers(trigger("gate", [tick]));
  const before = structuredClone(edited);
  validateTriggerMap(world, edited);
  assert.deepEqual(edited, before);
  assert.equal(Object.isFrozen(edited), false);
  assert.equal(Object.isFrozen(edited.gate), false);
});

test("TRIGGER_MAP_RULES are the registered rules check applies to a trigger", () => {
  const codes = TRIGGER_MAP_RULES.map((r) => r.code);
  for (const rule of TRIGGER_MAP_RULES) assert.ok(RULES.includes(rule), `${rule.code} is registered`);
  for (const rule of RULES) {
    if (/^(condition|effect|script|reference|keys)\//.test(rule.code))
      assert.ok(codes.includes(rule.code), `${rule.code} is included`);
  }
  for (const code of [
    "limit/trigger-count",
    "limit/trigger-size",
    "limit/effects-per-trigger",
    "limit/effect-value",
  ])
    assert.ok(codes.includes(code), code);
  for (const code of ["limit/trait-description", "limit/region-info", "limit/regions-section"])
    assert.ok(!codes.includes(code), `${code} is not about triggers`);
});

// Property: a condition or effect gets an error exactly when the schemas the engine applies reject it.

const word = fc.constantFrom("gate", "Lost Sheep", "health", "Ada Reed", "5", "true", "");
const junk = fc.oneof(fc.integer({ min: -3, max: 9 }), fc.boolean(), fc.constant(null), fc.constant({}));
const field = fc.option(fc.oneof({ arbitrary: word, weight: 4 }, { arbitrary: junk, weight: 1 }), {
  freq: 4,
  nil: undefined,
});
const scalar = fc.oneof(word, fc.integer({ min: -3, max: 9 }), fc.boolean());
const anyValue = fc.option(
  fc.oneof(
    scalar,
    fc.constantFrom(...QUEST_STATUSES, ...EVENT_STATUSES, "Completed"),
    fc.array(scalar, { maxLength: 3 }),
    fc.array(fc.oneof(scalar, junk), { maxLength: 3 }),
    junk,
  ),
  { freq: 6, nil: undefined },
);
const operator = (names: readonly string[]) =>
  fc.option(fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 6 }, { arbitrary: junk, weight: 1 }), {
    freq: 8,
    nil: undefined,
  });
const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

const conditionArb = fc
  .record({
    type: fc.constantFrom(...CONDITION_TYPE_NAMES, "game_tick", "quest-init"),
    operator: operator([
      ...NUMERIC_OPERATORS,
      ...TEXT_OPERATORS,
      "contains",
      "greaterThanOrEqualTo",
      "lessThanOrEqualTo",
      "set",
    ]),
    value: anyValue,
    resource: field,
    entity: field,
    questId: field,
    eventId: field,
    key: field,
    query: field,
    embeddingId: field,
  })
  .map(withoutUndefined);

const effectArb = fc
  .record({
    type: fc.constantFrom(...EFFECT_TYPE_NAMES, "teleport", "read-number"),
    operator: operator(["set", "add", "subtract", "multiply", "divide", "toggle", "remove", "equals"]),
    value: anyValue,
    instruction: field,
    questId: field,
    objectiveId: field,
    text: field,
    source: fc.option(fc.constantFrom("objective", "narrative-event", "quest", 1), {
      freq: 3,
      nil: undefined,
    }),
    eventId: field,
    resource: field,
    target: fc.option(fc.constantFrom("allPlayers", "satisfyingPlayers", "me", 1), {
      freq: 3,
      nil: undefined,
    }),
    entity: field,
    key: field,
  })
  .map(withoutUndefined);

/** The schema's verdict, plus spec 2.2's hard error for the `…OrEqualTo` spellings even where no operator belongs. */
function conditionIsValid(condition: Record<string, unknown>): boolean {
  if (condition.operator === "greaterThanOrEqualTo" || condition.operator === "lessThanOrEqualTo")
    return false;
  return isConditionType(condition.type) && CONDITION_SCHEMAS[condition.type].safeParse(condition).success;
}

test("a condition or effect is an error exactly when the engine's schemas reject it", () => {
  const seen = { valid: 0, invalid: 0 };
  fc.assert(
    fc.property(
      fc.array(conditionArb, { maxLength: 12 }),
      fc.array(effectArb, { maxLength: 12 }),
      (conditions, effects) => {
        // One condition or effect per trigger, so that each verdict can be read off its trigger's key.
        const triggers: Record<string, unknown> = {};
        conditions.forEach((c, i) => {
          triggers[`c${i}`] = trigger(`c${i}`, [c]);
        });
        effects.forEach((e, i) => {
          triggers[`e${i}`] = trigger(`e${i}`, [], [e]);
        });
        const flagged = new Set(
          validateTriggerMap(world, triggers)
            // The shape of a condition or effect; references (quest names…) are other rules' business.
            .filter((d) => d.severity === "error" && /^(condition|effect|shape)\//.test(d.code))
            .map((d) => d.path[1]),
        );
        const verdicts = [
          ...conditions.map((c, i) => [`c${i}`, conditionIsValid(c), c] as const),
          ...effects.map((e, i) => [`e${i}`, parseEffect(e).ok, e] as const),
        ];
        for (const [key, valid, value] of verdicts) {
          seen[valid ? "valid" : "invalid"]++;
          assert.equal(flagged.has(key), !valid, `${JSON.stringify(value)} ${valid ? "is valid" : "is not"}`);
        }
      },
    ),
    { numRuns: 150 },
  );
  // Both sides of the property must really have been exercised.
  assert.ok(seen.valid > 100 && seen.invalid > 100, JSON.stringify(seen));
});
