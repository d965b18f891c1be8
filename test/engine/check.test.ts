import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { build } from "esbuild";
import fc from "fast-check";
import {
  CHECK_TYPES,
  evaluateCondition,
  matchingCharacters,
  scriptCheck,
} from "../../src/engine/conditions/evaluate.ts";
import type { CheckSnapshot } from "../../src/engine/ports.ts";
import { compileRegex, matchPattern } from "../../src/world/pattern.ts";
import { CONDITION_TYPES } from "../../src/world/schema/conditions.ts";

/** Spec 2.2 condition table and spec 4 check(), over a fixed snapshot. */
const snapshot: CheckSnapshot = {
  tick: 7,
  position: { realm: "Vale", region: "Northfield", location: "Old Mill", area: "Millyard" },
  characters: [
    { name: "Wren", level: 3, resources: { health: 12, Mana: 2 }, traits: ["Brave"] },
    { name: "Tom", level: 1, resources: { health: 4 }, traits: [] },
  ],
  known: { Vale: true, "Ada Reed": false },
  questsCompleted: ["Lost Sheep"],
  questStatus: { "Lost Sheep": "completed", "Mill Fire": "accepted" },
  eventStatus: { storm: "active" },
  storyText: "The Dragon circles the mill.",
  actions: ["I climb the ladder", "I wait"],
};
const storage = { name: "Ada", count: 3, flag: true, list: ["a", 2, false], wrong: "7" };

const run = (condition: Record<string, unknown>) =>
  evaluateCondition(condition, snapshot, storage, matchPattern).passed;

describe("spec 2.2 numeric conditions: game-tick", () => {
  const cases: [string, number, boolean][] = [
    ["equals", 7, true],
    ["equals", 6, false],
    ["notEquals", 6, true],
    ["notEquals", 7, false],
    ["greaterThan", 6, true],
    ["greaterThan", 7, false],
    ["lessThan", 8, true],
    ["lessThan", 7, false],
    ["greaterThanOrEqual", 7, true],
    ["greaterThanOrEqual", 8, false],
    ["lessThanOrEqual", 7, true],
    ["lessThanOrEqual", 6, false],
  ];
  for (const [operator, value, expected] of cases) {
    test(`game-tick ${operator} ${value} is ${expected} at tick 7`, () => {
      assert.equal(run({ type: "game-tick", operator, value }), expected);
    });
  }
  test("the trace holds the actual and expected values", () => {
    assert.deepEqual(
      evaluateCondition({ type: "game-tick", operator: "equals", value: 3 }, snapshot, storage, matchPattern),
      {
        passed: false,
        actual: 7,
        expected: 3,
      },
    );
  });
});

describe("spec 2.2 ANY-member conditions: player-level, player-resource, player-traits", () => {
  test("player-level passes when ANY party member matches, with every numeric operator", () => {
    assert.equal(run({ type: "player-level", operator: "equals", value: 1 }), true);
    assert.equal(run({ type: "player-level", operator: "notEquals", value: 3 }), true);
    assert.equal(run({ type: "player-level", operator: "greaterThan", value: 2 }), true);
    assert.equal(run({ type: "player-level", operator: "greaterThan", value: 3 }), false);
    assert.equal(run({ type: "player-level", operator: "lessThan", value: 2 }), true);
    assert.equal(run({ type: "player-level", operator: "lessThan", value: 1 }), false);
    assert.equal(run({ type: "player-level", operator: "greaterThanOrEqual", value: 3 }), true);
    assert.equal(run({ type: "player-level", operator: "lessThanOrEqual", value: 0 }), false);
    assert.deepEqual(
      evaluateCondition(
        { type: "player-level", operator: "equals", value: 9 },
        snapshot,
        storage,
        matchPattern,
      ).actual,
      {
        Wren: 3,
        Tom: 1,
      },
    );
  });
  test("player-resource reads the resource case-insensitively and passes on ANY member", () => {
    assert.equal(run({ type: "player-resource", resource: "health", operator: "lessThan", value: 5 }), true);
    assert.equal(
      run({ type: "player-resource", resource: " HEALTH ", operator: "greaterThan", value: 11 }),
      true,
    );
    assert.equal(
      run({ type: "player-resource", resource: "health", operator: "greaterThan", value: 12 }),
      false,
    );
    assert.equal(run({ type: "player-resource", resource: "mana", operator: "equals", value: 2 }), true);
    assert.equal(
      run({ type: "player-resource", resource: "mana", operator: "notEquals", value: 2 }),
      false,
      "Tom lacks mana: not a match",
    );
    assert.equal(
      run({ type: "player-resource", resource: "health", operator: "greaterThanOrEqual", value: 12 }),
      true,
    );
    assert.equal(
      run({ type: "player-resource", resource: "health", operator: "lessThanOrEqual", value: 3 }),
      false,
    );
    assert.equal(
      run({ type: "player-resource", resource: "health", operator: "notEquals", value: 12 }),
      true,
    );
  });
  test("player-traits contains / notContains pass when ANY member has / lacks the trait", () => {
    assert.equal(run({ type: "player-traits", operator: "contains", value: "Brave" }), true);
    assert.equal(run({ type: "player-traits", operator: "contains", value: "Meek" }), false);
    assert.equal(
      run({ type: "player-traits", operator: "notContains", value: "Brave" }),
      true,
      "Tom lacks it",
    );
    assert.equal(run({ type: "player-traits", operator: "contains", value: 5 }), false);
  });
  test("matchingCharacters names the members that satisfy a per-character condition", () => {
    assert.deepEqual(
      matchingCharacters({ type: "player-level", operator: "greaterThan", value: 2 }, snapshot),
      ["Wren"],
    );
    assert.deepEqual(
      matchingCharacters({ type: "player-traits", operator: "notContains", value: "Brave" }, snapshot),
      ["Tom"],
    );
    assert.deepEqual(matchingCharacters({ type: "game-tick", operator: "equals", value: 7 }, snapshot), []);
  });
});

describe("spec 2.2 text conditions: party-*, story-text, action-text, read-string", () => {
  const text: [string, string, string, boolean][] = [
    ["party-realm", "equals", "Vale", true],
    ["party-realm", "notEquals", "Vale", false],
    ["party-region", "contains", "north", true],
    ["party-region", "notContains", "south", true],
    ["party-location", "equals", "old mill", false],
    ["party-location", "regex", "^Old\\s", true],
    ["party-area", "regex", "/^millyard$/i", true],
    ["party-area", "notEquals", "Loft", true],
    ["story-text", "contains", "dragon", true],
    ["story-text", "notContains", "DRAGON", false],
    ["story-text", "equals", "The Dragon circles the mill.", true],
    ["story-text", "notEquals", "x", true],
    ["story-text", "regex", "Dragon\\b", true],
    ["action-text", "contains", "ladder", true],
    ["action-text", "equals", "I wait", true],
    ["action-text", "notEquals", "I wait", true],
    ["action-text", "notContains", "ladder", true],
    ["action-text", "regex", "^I (climb|jump)", true],
    ["action-text", "regex", "^swim", false],
  ];
  for (const [type, operator, value, expected] of text) {
    test(`${type} ${operator} ${JSON.stringify(value)} is ${expected}`, () => {
      assert.equal(run({ type, operator, value }), expected);
    });
  }
  test("read-string with each operator, and its fallback", () => {
    assert.equal(run({ type: "read-string", key: "name", operator: "equals", value: "Ada" }), true);
    assert.equal(run({ type: "read-string", key: "name", operator: "notEquals", value: "Ada" }), false);
    assert.equal(run({ type: "read-string", key: "name", operator: "contains", value: "d" }), true);
    assert.equal(run({ type: "read-string", key: "name", operator: "notContains", value: "z" }), true);
    assert.equal(run({ type: "read-string", key: "name", operator: "regex", value: "^A" }), true);
    assert.equal(
      run({ type: "read-string", key: "missing", operator: "equals", value: "" }),
      true,
      "missing key reads ''",
    );
    assert.equal(
      run({ type: "read-string", key: "count", operator: "equals", value: "" }),
      true,
      "a number reads ''",
    );
  });
  test("a regex that does not compile never matches and is reported for logging", () => {
    const result = evaluateCondition(
      { type: "story-text", operator: "regex", value: "([" },
      snapshot,
      storage,
    );
    assert.equal(result.passed, false);
    assert.equal(result.badPattern, "([");
    assert.equal(compileRegex("([").ok, false);
    assert.equal(run({ type: "action-text", operator: "regex", value: "([" }), false);
  });
});

describe("spec 2.2 state conditions", () => {
  test("known-entity equals / notEquals", () => {
    assert.equal(run({ type: "known-entity", entity: "Vale", operator: "equals", value: true }), true);
    assert.equal(run({ type: "known-entity", entity: "Ada Reed", operator: "equals", value: false }), true);
    assert.equal(
      run({ type: "known-entity", entity: "Nobody", operator: "notEquals", value: true }),
      true,
      "unlisted is unknown",
    );
    assert.equal(run({ type: "known-entity", entity: "Vale", operator: "notEquals", value: true }), false);
  });
  test("quests-completed contains / notContains", () => {
    assert.equal(run({ type: "quests-completed", operator: "contains", value: "Lost Sheep" }), true);
    assert.equal(run({ type: "quests-completed", operator: "notContains", value: "Lost Sheep" }), false);
    assert.equal(run({ type: "quests-completed", operator: "notContains", value: "Mill Fire" }), true);
  });
  test("quest-status equals / notEquals; an unlisted quest is hidden", () => {
    assert.equal(
      run({ type: "quest-status", questId: "Mill Fire", operator: "equals", value: "accepted" }),
      true,
    );
    assert.equal(
      run({ type: "quest-status", questId: "Mill Fire", operator: "notEquals", value: "accepted" }),
      false,
    );
    assert.equal(run({ type: "quest-status", questId: "Other", operator: "equals", value: "hidden" }), true);
  });
  test("narrative-event-status equals / notEquals; an unlisted event is inactive", () => {
    assert.equal(
      run({ type: "narrative-event-status", eventId: "storm", operator: "equals", value: "active" }),
      true,
    );
    assert.equal(
      run({ type: "narrative-event-status", eventId: "storm", operator: "notEquals", value: "active" }),
      false,
    );
    assert.equal(
      run({ type: "narrative-event-status", eventId: "fair", operator: "equals", value: "inactive" }),
      true,
    );
  });
});

describe("spec 2.2 persistent storage: read-* and their fallbacks", () => {
  test("read-number with every numeric operator", () => {
    assert.equal(run({ type: "read-number", key: "count", operator: "equals", value: 3 }), true);
    assert.equal(run({ type: "read-number", key: "count", operator: "notEquals", value: 3 }), false);
    assert.equal(run({ type: "read-number", key: "count", operator: "greaterThan", value: 2 }), true);
    assert.equal(run({ type: "read-number", key: "count", operator: "lessThan", value: 3 }), false);
    assert.equal(run({ type: "read-number", key: "count", operator: "greaterThanOrEqual", value: 3 }), true);
    assert.equal(run({ type: "read-number", key: "count", operator: "lessThanOrEqual", value: 2 }), false);
  });
  test("read-number on a missing key or a non-number gives 0, the stored value intact", () => {
    assert.equal(run({ type: "read-number", key: "missing", operator: "equals", value: 0 }), true);
    assert.equal(
      run({ type: "read-number", key: "wrong", operator: "equals", value: 0 }),
      true,
      '"7" is a string',
    );
    assert.equal(storage.wrong, "7");
  });
  test("read-boolean equals / notEquals; a non-boolean reads false", () => {
    assert.equal(run({ type: "read-boolean", key: "flag", operator: "equals", value: true }), true);
    assert.equal(run({ type: "read-boolean", key: "flag", operator: "notEquals", value: true }), false);
    assert.equal(run({ type: "read-boolean", key: "name", operator: "equals", value: false }), true);
    assert.equal(run({ type: "read-boolean", key: "missing", operator: "equals", value: false }), true);
  });
  test("read-array contains / notContains with string, number and boolean elements; a non-array reads []", () => {
    assert.equal(run({ type: "read-array", key: "list", operator: "contains", value: "a" }), true);
    assert.equal(run({ type: "read-array", key: "list", operator: "contains", value: 2 }), true);
    assert.equal(run({ type: "read-array", key: "list", operator: "contains", value: false }), true);
    assert.equal(
      run({ type: "read-array", key: "list", operator: "contains", value: "2" }),
      false,
      "no type coercion",
    );
    assert.equal(run({ type: "read-array", key: "list", operator: "notContains", value: "b" }), true);
    assert.equal(run({ type: "read-array", key: "name", operator: "notContains", value: "Ada" }), true);
  });
});

describe("malformed conditions", () => {
  test("unknown type, wrong operator, wrong value type, missing field: failed with an error, never a throw", () => {
    for (const condition of [
      null,
      [],
      { type: "nope" },
      { type: "constructor", operator: "equals", value: 1 },
      { type: "game-tick", operator: "greaterThanOrEqualTo", value: 1 },
      { type: "game-tick", operator: "equals", value: "1" },
      { type: "read-boolean", key: "flag", operator: "equals", value: "true" },
      { type: "player-resource", operator: "equals", value: 1 },
      { type: "quest-status", questId: "Mill Fire", operator: "equals", value: "done" },
    ]) {
      const result = evaluateCondition(condition, snapshot, storage, matchPattern);
      assert.equal(result.passed, false, JSON.stringify(condition));
      assert.ok(result.error, JSON.stringify(condition));
      assert.equal(scriptCheck(condition, snapshot, storage), undefined);
    }
  });
  test("story and action are not decided mechanically", () => {
    const result = evaluateCondition({ type: "story", query: "a dragon" }, snapshot, storage, matchPattern);
    assert.equal(result.passed, false);
    assert.match(result.error!, /AI/);
  });
});

describe("spec 4 check(): raw values without an operator", () => {
  const raw = (condition: Record<string, unknown>) => scriptCheck(condition, snapshot, storage);
  test("position types return strings", () => {
    assert.equal(raw({ type: "party-realm" }), "Vale");
    assert.equal(raw({ type: "party-region" }), "Northfield");
    assert.equal(raw({ type: "party-location" }), "Old Mill");
    assert.equal(raw({ type: "party-area" }), "Millyard");
  });
  test("game-tick returns a number; level, resource and traits return maps keyed by character name", () => {
    assert.equal(raw({ type: "game-tick" }), 7);
    assert.deepEqual(raw({ type: "player-level" }), { Wren: 3, Tom: 1 });
    assert.deepEqual(raw({ type: "player-resource", resource: "health" }), { Wren: 12, Tom: 4 });
    assert.deepEqual(raw({ type: "player-traits" }), { Wren: ["Brave"], Tom: [] });
  });
  test("quest-status and narrative-event-status (not in the spec 4 table) return the status string", () => {
    assert.equal(raw({ type: "quest-status", questId: "Mill Fire" }), "accepted");
    assert.equal(raw({ type: "narrative-event-status", eventId: "fair" }), "inactive");
  });
  test("known-entity returns a boolean; quests-completed an array", () => {
    assert.equal(raw({ type: "known-entity", entity: "Vale" }), true);
    assert.deepEqual(raw({ type: "quests-completed" }), ["Lost Sheep"]);
  });
  test("read-* return the stored value or the fallback", () => {
    assert.equal(raw({ type: "read-string", key: "name" }), "Ada");
    assert.equal(raw({ type: "read-string", key: "count" }), "");
    assert.equal(raw({ type: "read-number", key: "count" }), 3);
    assert.equal(raw({ type: "read-number", key: "nope" }), 0);
    assert.equal(raw({ type: "read-boolean", key: "flag" }), true);
    assert.equal(raw({ type: "read-boolean", key: "nope" }), false);
    assert.deepEqual(raw({ type: "read-array", key: "list" }), ["a", 2, false]);
    assert.deepEqual(raw({ type: "read-array", key: "nope" }), []);
  });
  test("story-text and story return the story raw; action-text and action the array of actions", () => {
    assert.equal(raw({ type: "story-text" }), snapshot.storyText);
    assert.equal(raw({ type: "story", query: "anything" }), snapshot.storyText);
    assert.deepEqual(raw({ type: "action-text" }), snapshot.actions);
    assert.deepEqual(raw({ type: "action", query: "anything" }), snapshot.actions);
  });
  test("returned maps are copies: mutating them does not change the snapshot", () => {
    const traits = raw({ type: "player-traits" }) as Record<string, string[]>;
    traits.Wren!.push("Meek");
    assert.deepEqual(snapshot.characters[0]!.traits, ["Brave"]);
  });
});

describe("spec 4 check(): with an operator", () => {
  test("returns a boolean, ANY character for level, resource and traits", () => {
    assert.equal(
      scriptCheck({ type: "player-level", operator: "equals", value: 1 }, snapshot, storage),
      true,
    );
    assert.equal(
      scriptCheck(
        { type: "player-resource", resource: "health", operator: "greaterThan", value: 100 },
        snapshot,
        storage,
      ),
      false,
    );
    assert.equal(
      scriptCheck({ type: "player-traits", operator: "contains", value: "Brave" }, snapshot, storage),
      true,
    );
    assert.equal(
      scriptCheck({ type: "read-number", key: "count", operator: "equals", value: 3 }, snapshot, storage),
      true,
    );
  });
  test("the regex operator returns undefined", () => {
    assert.equal(
      scriptCheck({ type: "story-text", operator: "regex", value: "Dragon" }, snapshot, storage),
      undefined,
    );
  });
  test("scriptCheck agrees with evaluateCondition on every well-formed condition with an operator", () => {
    const arb = fc.oneof(
      fc.record({
        type: fc.constant("game-tick"),
        operator: fc.constantFrom(...CHECK_TYPES["game-tick"]!.operators),
        value: fc.integer({ min: 0, max: 10 }),
      }),
      fc.record({
        type: fc.constant("player-level"),
        operator: fc.constantFrom(...CHECK_TYPES["player-level"]!.operators),
        value: fc.integer({ min: 0, max: 4 }),
      }),
      fc.record({
        type: fc.constant("story-text"),
        operator: fc.constantFrom("equals", "notEquals", "contains", "notContains"),
        value: fc.constantFrom("dragon", "mill", "x", ""),
      }),
      fc.record({
        type: fc.constant("read-array"),
        key: fc.constantFrom("list", "name"),
        operator: fc.constantFrom("contains", "notContains"),
        value: fc.constantFrom("a", 2, false, "z"),
      }),
    );
    fc.assert(
      fc.property(arb, (condition) => {
        assert.equal(
          scriptCheck(condition, snapshot, storage),
          evaluateCondition(condition, snapshot, storage, matchPattern).passed,
        );
      }),
    );
  });
});

describe("src/engine/conditions/ stays self-contained for the sandbox", () => {
  test("each type's module takes its fields, operators and value kind from CONDITION_TYPES of the world schema", () => {
    assert.deepEqual(
      Object.keys(CHECK_TYPES).sort(),
      Object.keys(CONDITION_TYPES).sort(),
      "CONDITIONS (src/engine/conditions/index.ts) must hold every type of CONDITION_TYPES: add the type's module and its line there",
    );
    for (const [type, spec] of Object.entries(CONDITION_TYPES)) {
      const mine = CHECK_TYPES[type]!;
      assert.equal(mine.type, type, `CONDITIONS["${type}"] is the module of ${mine.type}`);
      assert.equal(mine.operators, spec.operators, type);
      assert.equal(mine.value, spec.value, type);
      assert.equal(mine.fields, spec.fields, type);
    }
  });
  test("its only runtime imports are its own modules, the operators module and the condition table, which import nothing", () => {
    const imports = (path: string) =>
      readFileSync(new URL(path, import.meta.url), "utf8")
        .split("\n")
        .filter((line) => /^\s*import\b/.test(line));
    const modules = readdirSync(new URL("../../src/engine/conditions/", import.meta.url)).filter((f) =>
      f.endsWith(".ts"),
    );
    assert.ok(modules.includes("evaluate.ts"));
    for (const file of modules)
      for (const line of imports(`../../src/engine/conditions/${file}`))
        assert.match(
          line,
          /^import type |from "\.\.\/\.\.\/world\/(?:operators|schema\/condition-table)\.ts";$|from "\.\/[\w-]+\.ts";$/,
          file,
        );
    assert.deepEqual(imports("../../src/world/operators.ts"), []);
    assert.deepEqual(imports("../../src/world/schema/condition-table.ts"), []);
  });
  test("esbuild bundles it into code with no import, require, clock or randomness", async () => {
    const result = await build({
      entryPoints: [new URL("../../src/engine/conditions/evaluate.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "iife",
      globalName: "taleforgeCheck",
      platform: "neutral",
    });
    const code = result.outputFiles[0]!.text;
    assert.doesNotMatch(code, /\brequire\(|\bimport\b|Math\.random|Date\.now|new Date/);
    const check = new Function(`${code}; return taleforgeCheck;`)() as { scriptCheck: typeof scriptCheck };
    assert.equal(check.scriptCheck({ type: "game-tick" }, snapshot, storage), 7);
  });
});
