import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsePlaytest } from "../../src/author/playtest/load.ts";
import type { Problem } from "../../src/author/playtest/problem.ts";

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;

/** The problems of a YAML play-test as `code line:column message`. */
function problems(text: string): Problem[] {
  return parsePlaytest(text, "sample.test.yaml").problems;
}

function one(text: string): Problem {
  const list = problems(text);
  assert.equal(list.length, 1, list.map((p) => `${p.code} ${p.line}:${p.column} ${p.message}`).join("\n"));
  return list[0]!;
}

describe("the format: unknown keys", () => {
  test("at the top level, with a did-you-mean and the known keys, at the key", () => {
    const p = one(yaml("world: w.json", "plyers: []", "turns: [{ act: a }]"));
    assert.equal(p.code, "playtest/unknown-key");
    assert.deepEqual([p.line, p.column], [2, 1]);
    assert.match(p.message, /`plyers` is not a key of a play-test file\. Did you mean "players"\?/);
    assert.match(
      p.message,
      /Known keys: world, name, storyStart, seed, gameMode, players, given, turns, tests\./,
    );
  });

  test("in a step, in expect, and deep inside a player's expectation", () => {
    const list = problems(
      yaml(
        "world: w.json",
        "turns:",
        "  - act: a",
        "    expct: {}",
        "  - act: b",
        "    expect:",
        "      quest: {}",
        "      players:",
        "        Aria: { resource: { health: 1 } }",
      ),
    );
    assert.deepEqual(
      list.map((p) => [p.code, p.line, p.column]),
      [
        ["playtest/unknown-key", 4, 5],
        ["playtest/unknown-key", 7, 7],
        ["playtest/unknown-key", 9, 17],
      ],
    );
    assert.match(list[0]!.message, /`expct` is not a key of `turns\[0\]`\. Did you mean "expect"\?/);
    assert.match(list[1]!.message, /`quest` is not a key of `turns\[1\]\.expect`\. Did you mean "quests"\?/);
    assert.match(list[2]!.message, /Did you mean "resources"\?/);
  });
});

describe("the format: types and values", () => {
  test("a missing world says what to write", () => {
    const p = one(yaml("turns: [{ act: a }]"));
    assert.equal(p.code, "playtest/missing-key");
    assert.match(
      p.message,
      /`world` is missing in the file\. Name the world file, relative to this play-test/,
    );
  });

  test("wrong types name the expected and the actual type", () => {
    const p = one(yaml("world: w.json", "seed: seven", "turns: [{ act: a }]"));
    assert.equal(p.code, "playtest/wrong-type");
    assert.deepEqual([p.line, p.column], [2, 7]);
    assert.equal(p.message, '`seed` must be a number, not the string "seven".');
  });

  test("an unknown intent suggests the closest one", () => {
    const p = one(yaml("world: w.json", "turns:", "  - act: a", "    intent: travl"));
    assert.equal(p.code, "playtest/invalid-value");
    assert.deepEqual([p.line, p.column], [4, 13]);
    assert.match(
      p.message,
      /`turns\[0\]\.intent` is the string "travl"\. Did you mean "travel"\? Use one of: attack,/,
    );
  });

  test("a quest status: a status name, or {status, objectives}", () => {
    const list = problems(
      yaml(
        "world: w.json",
        "turns:",
        "  - act: a",
        "    expect:",
        "      quests: { A: done, B: { status: acepted, objectives: { x: finished } }, C: 3 }",
      ),
    );
    assert.deepEqual(
      list.map((p) => [p.code, p.column]),
      [
        ["playtest/invalid-value", 20],
        ["playtest/invalid-value", 39],
        ["playtest/invalid-value", 65],
        ["playtest/wrong-type", 82],
      ],
    );
    assert.match(list[1]!.message, /Did you mean "accepted"\?/);
    assert.match(list[3]!.message, /must be one of hidden, .* or a mapping, not the number 3/);
  });

  test("a resource expectation is a number or {current, max}", () => {
    const p = one(
      yaml(
        "world: w.json",
        "turns:",
        "  - act: a",
        "    expect: { players: { Aria: { resources: { health: full } } } }",
      ),
    );
    assert.equal(p.code, "playtest/wrong-type");
    assert.match(p.message, /must be a number or a mapping, not the string "full"/);
  });

  test("empty lists and blank names are refused", () => {
    const list = problems(yaml("world: ' '", "players: []", "turns: []"));
    assert.deepEqual(
      list.map((p) => p.code),
      ["playtest/invalid-value", "playtest/invalid-value", "playtest/invalid-value"],
    );
    assert.match(list[0]!.message, /must not be empty/);
    assert.match(list[1]!.message, /at least one player/);
    assert.match(list[2]!.message, /at least one step/);
  });

  test("items are whole quantities, 0 or more", () => {
    const p = one(
      yaml(
        "world: w.json",
        "turns:",
        "  - act: a",
        "    expect: { players: { Aria: { items: { Rope: 1.5 } } } }",
      ),
    );
    assert.equal(p.code, "playtest/wrong-type");
    assert.equal(
      p.message,
      "`turns[0].expect.players.Aria.items.Rope` must be a whole number, not the number 1.5.",
    );
  });
});

describe("the format: keys that go together", () => {
  const rule = (...lines: string[]) => one(yaml("world: w.json", ...lines));

  test("one action kind per step", () => {
    const p = rule("turns:", "  - act: a", "    accept: Q");
    assert.equal(p.code, "playtest/conflict");
    assert.deepEqual([p.line, p.column], [4, 5]);
    assert.match(p.message, /`act` and `accept` cannot be in the same step/);
  });

  test("a step that does nothing", () => {
    assert.match(rule("turns:", "  - {}").message, /This step does nothing/);
  });

  test("`target` without `intent`: the decision is to refuse it, not to guess the intent", () => {
    const p = rule("turns:", "  - act: go", "    target: Old Lighthouse");
    assert.equal(p.code, "playtest/conflict");
    assert.match(p.message, /add `intent:`/);
  });

  test("pins and `player` only go with a played turn", () => {
    assert.match(rule("turns:", "  - accept: Q", "    story: hi").message, /goes with `act:` or `acts:`/);
    assert.match(
      rule("turns:", "  - acts: [{ player: A, act: a }]", "    player: A").message,
      /each entry names its player/,
    );
  });

  test("one action per player in `acts`", () => {
    const p = rule("turns:", "  - acts: [{ player: A, act: a }, { player: A, act: b }]");
    assert.match(p.message, /"A" already acts in this turn \(acts\[0\]\)/);
  });

  test("`turns` or `tests`, not both, not neither; `name` with `tests` goes in each test", () => {
    assert.match(rule("turns: [{ act: a }]", "tests: [{ turns: [{ act: a }] }]").message, /not both/);
    assert.match(rule("seed: 1").message, /neither `turns:`/);
    assert.match(rule("name: x", "tests: [{ turns: [{ act: a }] }]").message, /name each test/);
  });

  test("test names are unique within a file", () => {
    const p = rule(
      "tests:",
      "  - { name: same, turns: [{ act: a }] }",
      "  - { name: same, turns: [{ act: a }] }",
    );
    assert.equal(p.line, 4);
    assert.match(p.message, /Test 2 has the same name as test 1/);
  });

  test("a player is premade or made up, and a premade brings its own traits", () => {
    assert.match(
      rule("players: [{ name: A, premade: B }]", "turns: [{ act: a }]").message,
      /`premade: <name>` or a made-up `name:`, not both/,
    );
    assert.match(rule("players: [{ traits: [X] }]", "turns: [{ act: a }]").message, /needs `name:`/);
    assert.match(
      rule("players: [{ premade: B, traits: [X] }]", "turns: [{ act: a }]").message,
      /A premade character has its own traits/,
    );
  });
});

describe("planning the tests of a file", () => {
  test("a file with `turns` is one test named after the file; defaults: seed 1, no story start", () => {
    const loaded = parsePlaytest(yaml("world: w.json", "turns: [{ act: a }]"), "dir/harbor-quest.test.yaml");
    assert.equal(loaded.tests.length, 1);
    const [t] = loaded.tests;
    assert.equal(t!.name, "harbor-quest");
    assert.equal(t!.seed, 1);
    assert.equal(t!.storyStart, undefined);
    assert.equal(t!.players, undefined);
    assert.deepEqual(t!.path, []);
  });

  test("`tests` inherit the file's settings and may override them; unnamed tests are numbered", () => {
    const loaded = parsePlaytest(
      yaml(
        "world: w.json",
        "seed: 7",
        "players: [{ name: A }]",
        "tests:",
        "  - turns: [{ act: a }]",
        "  - name: second",
        "    seed: 9",
        "    players: [{ name: B }]",
        "    turns: [{ act: b }]",
      ),
      "x.test.yaml",
    );
    const [first, second] = loaded.tests;
    assert.deepEqual([first!.name, first!.seed, first!.players], ["test 1", 7, [{ name: "A" }]]);
    assert.deepEqual([second!.name, second!.seed, second!.players], ["second", 9, [{ name: "B" }]]);
    assert.deepEqual(first!.origin.players, ["players"]);
    assert.deepEqual(second!.origin.players, ["tests", 1, "players"]);
    assert.deepEqual(second!.path, ["tests", 1]);
  });

  test("JSON play-tests follow the same format", () => {
    const loaded = parsePlaytest('{"world": "w.json", "turns": [{"act": "a", "expct": {}}]}', "x.test.json");
    assert.equal(loaded.problems[0]!.code, "playtest/unknown-key");
    assert.deepEqual([loaded.problems[0]!.line, loaded.problems[0]!.column], [1, 44]);
  });
});
