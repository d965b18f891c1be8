import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Json, JsonObject } from "./json-tree.ts";

/**
 * Random trigger maps over the base world, for the lint properties: a small
 * vocabulary of names (two quests, one narrative event, four storage keys,
 * the base world's places and entities, and a few names that do not exist)
 * so that random triggers often depend on each other: one writes what
 * another reads, starts what another waits for, completes what another
 * tests. Conditions and effects are well-formed; values and operators mix
 * freely, so contradictions, dead chains and circles come up often.
 */

const BASE = JSON.parse(
  readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"),
) as JsonObject;

export const QUESTS = ["Lost Sheep", "Stray Goat"];
export const LOCATIONS = ["Old Mill", "Fen Hut"];
export const AREAS = ["Millyard", "Loft", "Porch"];
const KEYS = ["a", "n", "s", "list"];
const STATUSES = ["hidden", "available", "accepted", "completed", "abandoned", "rejected", "expired"];
const EVENT_STATUSES = ["inactive", "active", "completed", "stopped"];
const NUMERIC = ["equals", "notEquals", "greaterThan", "lessThan", "greaterThanOrEqual", "lessThanOrEqual"];
const TEXT = ["equals", "notEquals", "contains", "notContains", "regex"];
const EQUALITY = ["equals", "notEquals"];
const MEMBERSHIP = ["contains", "notContains"];
const TRIGGER_NAMES = [
  "t0",
  "t1",
  "t2",
  "t3",
  "t4",
  "t5",
  "start_sheep",
  "Stray Goat_objective",
  "Lost Sheep_objective_2",
];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const number = pick([-1, 0, 1, 2, 3, 5, 2.5]);
const scalar = pick<Json>(["fox", "owl", 1, true]);

const condition: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ type: fc.constant("game-tick"), operator: pick(NUMERIC), value: number }),
  fc.record({
    type: pick(["party-location", "party-area", "party-region", "party-realm"]),
    operator: pick(TEXT),
    value: pick([...LOCATIONS, ...AREAS, "Northfield", "Vale", "mill", "^F", "o", "", "Nowhere"]),
  }),
  fc.record({
    type: fc.constant("read-boolean"),
    key: pick(KEYS),
    operator: pick(EQUALITY),
    value: fc.boolean(),
  }),
  fc.record({ type: fc.constant("read-number"), key: pick(KEYS), operator: pick(NUMERIC), value: number }),
  fc.record({
    type: fc.constant("read-string"),
    key: pick(KEYS),
    operator: pick(TEXT),
    value: pick(["", "calm", "grim", "al"]),
  }),
  fc.record({ type: fc.constant("read-array"), key: pick(KEYS), operator: pick(MEMBERSHIP), value: scalar }),
  fc.record({
    type: fc.constant("quest-status"),
    questId: pick(QUESTS),
    operator: pick(EQUALITY),
    value: pick(STATUSES),
  }),
  fc.record({
    type: fc.constant("narrative-event-status"),
    eventId: fc.constant("Storm"),
    operator: pick(EQUALITY),
    value: pick(EVENT_STATUSES),
  }),
  fc.record({ type: fc.constant("quests-completed"), operator: pick(MEMBERSHIP), value: pick(QUESTS) }),
  fc.record({
    type: fc.constant("known-entity"),
    entity: pick(["Ada Reed", "Millers", "Ghost"]),
    operator: pick(EQUALITY),
    value: fc.boolean(),
  }),
  fc.record({ type: fc.constant("story"), query: fc.constant("Something happens.") }),
  fc.record({ type: fc.constant("action-text"), operator: pick(MEMBERSHIP), value: fc.constant("go") }),
);

const effect: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ type: fc.constant("quest-init"), operator: fc.constant("set"), value: pick(QUESTS) }),
  fc.record({ type: pick(["quest-complete", "quest-progress"]), questId: pick(QUESTS) }),
  fc.record({ type: fc.constant("narrative-event-start"), eventId: fc.constant("Storm") }),
  fc.oneof(
    fc.record({
      type: fc.constant("write-boolean"),
      key: pick(KEYS),
      operator: fc.constant("set"),
      value: fc.boolean(),
    }),
    fc.record({ type: fc.constant("write-boolean"), key: pick(KEYS), operator: fc.constant("toggle") }),
  ),
  fc.record({
    type: fc.constant("write-number"),
    key: pick(KEYS),
    operator: pick(["set", "add", "subtract", "multiply"]),
    value: pick([0, 1, 2, 5]),
  }),
  fc.record({
    type: fc.constant("write-string"),
    key: pick(KEYS),
    operator: fc.constant("set"),
    value: pick(["calm", "grim"]),
  }),
  fc.oneof(
    fc.record({
      type: fc.constant("write-array"),
      key: pick(KEYS),
      operator: pick(["add", "remove"]),
      value: scalar,
    }),
    fc.record({
      type: fc.constant("write-array"),
      key: pick(KEYS),
      operator: fc.constant("set"),
      value: fc.array(scalar, { maxLength: 2 }),
    }),
  ),
  fc.oneof(
    fc.record({
      type: fc.constant("known-entity"),
      entity: pick(["Ada Reed", "Ghost"]),
      operator: fc.constant("set"),
      value: fc.boolean(),
    }),
    fc.record({
      type: fc.constant("known-entity"),
      entity: pick(["Ada Reed", "Ghost"]),
      operator: fc.constant("toggle"),
    }),
  ),
  fc.record({ type: fc.constant("party-location"), operator: fc.constant("set"), value: pick(LOCATIONS) }),
  fc.record({ type: fc.constant("party-area"), operator: fc.constant("set"), value: pick(AREAS) }),
  fc.record({ type: fc.constant("story"), instruction: fc.constant("Something is said.") }),
);

/** Scripts the lint analysis must stay sound on: followed ones, and ones it cannot follow. */
const SCRIPTS = [
  "storage.n = (storage.n ?? 0) + 1;",
  'storage["s"] = "calm";',
  'effects.push({ type: "quest-init", operator: "set", value: "Stray Goat" });',
  'effects.push({ type: "write-string", key: "s", operator: "set", value: "ca" + "lm" });',
  'if (check({ type: "read-number", key: "n" }) > 2) skip = true;',
  "effects.length = 0;",
  "const k = ['a', 'n'][check({ type: 'game-tick' }) % 2]; storage[k] = true;",
  'effects.push(JSON.parse(\'{"type":"narrative-event-start","eventId":"Storm"}\'));',
  'triggers.added = { name: "added", conditions: [], effects: [{ type: "quest-complete", questId: "Lost Sheep" }] };',
  "triggers.t0 && delete triggers.t0;",
  "globalThis.effects.push({ type: 'write-boolean', key: 'a', operator: 'set', value: true });",
  "effects[0] && (effects[0].value = 'Stray Goat');",
  "storage = { list: ['fox'] };",
  "syntax error (",
];

const trigger = fc.record(
  {
    conditions: fc.array(condition, { maxLength: 4 }),
    effects: fc.array(effect, { maxLength: 4 }),
    recurring: fc.boolean(),
    script: pick(SCRIPTS),
  },
  { requiredKeys: ["conditions", "effects"] },
);

const scriptless = fc.record(
  {
    conditions: fc.array(condition, { maxLength: 4 }),
    effects: fc.array(effect, { maxLength: 4 }),
    recurring: fc.boolean(),
  },
  { requiredKeys: ["conditions", "effects"] },
);

/** A base world with a detailed second quest (so the engine makes its objective trigger), an event, and random triggers. */
export function worldArb(options: { scripts: boolean }): fc.Arbitrary<JsonObject> {
  const triggers = fc.dictionary(pick(TRIGGER_NAMES), options.scripts ? trigger : scriptless, {
    minKeys: 1,
    maxKeys: 7,
  });
  return fc
    .record({ triggers, onComplete: fc.array(effect, { maxLength: 2 }) })
    .map(({ triggers, onComplete }) => {
      const world = structuredClone(BASE);
      (world.quests as JsonObject)["Stray Goat"] = {
        name: "Stray Goat",
        questSource: "Ada Reed",
        questStatement: "A goat is loose in the loft.",
        mainObjective: "Get the goat down.",
        completionCondition: "The goat is back in the yard.",
        detailType: "detailed",
        questLocation: "Old Mill",
      };
      world.narrativeEvents = {
        Storm: { title: "Storm", beats: "Rain.", targetTurns: 1, onCompleteEffects: onComplete },
      };
      world.triggers = Object.fromEntries(
        Object.entries(triggers).map(([name, t]) => [name, { name, ...t }]),
      );
      return world;
    });
}
