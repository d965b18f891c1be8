import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsePlaytest } from "../../src/author/playtest/load.ts";
import { MAX_ALIAS_COUNT, MAX_FILE_BYTES, MAX_VALUES, parseText } from "../../src/author/playtest/parse.ts";
import { cpuMsSince } from "../helpers/cpu.ts";

/** The text of a YAML play-test, from lines (no trailing spaces to get wrong). */
const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;

const SAMPLE = yaml(
  "world: ../harbor.world.json", //                          1
  "turns:", //                                                2
  "  - act: walk to the Gutted Eel", //                      3
  "    expect:", //                                           4
  "      fired: [keeper_rumour, meet_mara]", //               5
  "      quests:", //                                         6
  `        "The Keeper's Debt": available`, //                7
  "      players:", //                                        8
  "        Aria: { resources: { health: 90 } }", //           9
);

describe("positions in YAML", () => {
  const parsed = parseText(SAMPLE, "yaml");

  test("the text parses without problems", () => {
    assert.deepEqual(parsed.problems, []);
    assert.equal((parsed.value as { world: string }).world, "../harbor.world.json");
  });

  test("every expectation maps to its line and column, down to each key and list item", () => {
    assert.deepEqual(parsed.locate(["world"]), { line: 1, column: 8 });
    assert.deepEqual(parsed.locate(["world"], true), { line: 1, column: 1 });
    assert.deepEqual(parsed.locate(["turns", 0, "act"]), { line: 3, column: 10 });
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "fired", 0]), { line: 5, column: 15 });
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "fired", 1]), { line: 5, column: 30 });
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "quests", "The Keeper's Debt"], true), {
      line: 7,
      column: 9,
    });
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "quests", "The Keeper's Debt"]), {
      line: 7,
      column: 30,
    });
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "players", "Aria", "resources", "health"], true), {
      line: 9,
      column: 30,
    });
  });

  test("a path that does not exist is reported at the deepest node that does", () => {
    assert.deepEqual(parsed.locate(["turns", 0, "expect", "storage", "x"]), { line: 5, column: 7 });
    assert.deepEqual(parsed.locate(["turns", 7]), { line: 3, column: 3 });
  });

  test("a path through an alias is reported at the alias", () => {
    const text = yaml(
      "world: w.json",
      "players:",
      "  - &aria { name: Aria, traits: [Noble] }",
      "tests:",
      "  - players: [*aria]",
      "    turns: [{ act: a }]",
    );
    const p = parseText(text, "yaml");
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.locate(["tests", 0, "players", 0, "traits", 0]), { line: 5, column: 15 });
    assert.deepEqual(p.locate(["players", 0, "traits", 0]), { line: 3, column: 34 });
  });

  test("CRLF line ends and a byte-order mark do not shift positions", () => {
    const text = `\ufeff${SAMPLE.replace(/\n/g, "\r\n")}`;
    const p = parseText(text, "yaml");
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.locate(["turns", 0, "expect", "fired", 1]), { line: 5, column: 30 });
  });
});

describe("positions in JSON (*.test.json)", () => {
  const text = [
    "{",
    '  "world": "w.json",',
    '  "turns": [',
    '    { "act": "a", "expect": { "quests": { "Q": "available" } } }',
    "  ]",
    "}",
  ].join("\n");

  test("keys and values map to their position", () => {
    const p = parseText(text, "json");
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.locate(["turns", 0, "expect", "quests", "Q"], true), { line: 4, column: 43 });
    assert.deepEqual(p.locate(["turns", 0, "expect", "quests", "Q"]), { line: 4, column: 48 });
  });

  test("a syntax error has its position", () => {
    const p = parseText('{\n  "world": "w.json",\n  "turns": [}\n', "json");
    assert.equal(p.problems[0]!.code, "playtest/syntax");
    assert.equal(p.problems[0]!.line, 3);
  });

  test("a duplicate key is an error (JSON.parse would keep the last one silently)", () => {
    const p = parseText('{"world": "a", "world": "b", "turns": []}', "json");
    assert.equal(p.problems.length, 1);
    assert.equal(p.problems[0]!.code, "playtest/duplicate-key");
    assert.deepEqual([p.problems[0]!.line, p.problems[0]!.column], [1, 16]);
  });
});

describe("hostile YAML", () => {
  const problemsOf = (text: string) => parseText(text, "yaml").problems;

  test("a tab used as indentation: one problem at the tab, saying to use spaces", () => {
    const [p, ...rest] = problemsOf("world: w\nturns:\n\t- act: a\n");
    assert.equal(rest.length, 0);
    assert.equal(p!.code, "playtest/syntax");
    assert.equal(p!.line, 3);
    assert.match(p!.message, /tab/i);
    assert.match(p!.message, /spaces/);
  });

  test("a duplicate key is an error at the second key", () => {
    const [p] = problemsOf("world: a\nturns: []\nworld: b\n");
    assert.equal(p!.code, "playtest/duplicate-key");
    assert.deepEqual([p!.line, p!.column], [3, 1]);
  });

  test(`a "billion laughs" alias bomb stops at maxAliasCount (${MAX_ALIAS_COUNT}), fast`, () => {
    const lol = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (const [name, prev] of [
      ["b", "a"],
      ["c", "b"],
      ["d", "c"],
      ["e", "d"],
      ["f", "e"],
      ["g", "f"],
      ["h", "g"],
      ["i", "h"],
    ])
      lol.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    const started = process.cpuUsage();
    const [p, ...rest] = problemsOf(yaml(...lol));
    assert.ok(cpuMsSince(started) < 2000, "refused quickly, not expanded");
    assert.equal(rest.length, 0);
    assert.equal(p!.code, "playtest/alias");
    assert.match(p!.message, /too much data/);
    assert.deepEqual([p!.line, p!.column], [2, 8], "at the first alias");
  });

  test("many aliases of a big anchor, each within maxAliasCount, are refused by their total", () => {
    const big = Array(20_000).fill("1").join(",");
    const text = `world: w\nx: &a [${big}]\nturns:\n${"  - act: a\n    expect: { storage: { k: *a } }\n".repeat(30)}`;
    const [p, ...rest] = problemsOf(text);
    assert.equal(rest.length, 0);
    assert.equal(p!.code, "playtest/alias");
    assert.match(p!.message, new RegExp(`more than ${MAX_VALUES} values`));
    assert.equal(p!.line, 5, "at the first alias");
  });

  test("a few aliases of a small node are fine", () => {
    const p = parseText(yaml("p: &p { name: Aria }", "q: *p", "r: *p"), "yaml");
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.value, { p: { name: "Aria" }, q: { name: "Aria" }, r: { name: "Aria" } });
  });

  test("an alias to an anchor that is not defined", () => {
    const [p] = problemsOf("world: *nowhere\n");
    assert.ok(p);
    assert.match(p.code, /playtest\/(alias|syntax)/);
  });

  test("several documents: one file is one play-test document", () => {
    const [p] = problemsOf("world: a\n---\nworld: b\n");
    assert.equal(p!.code, "playtest/syntax");
    assert.equal(p!.line, 2);
    assert.match(p!.message, /several YAML documents/);
  });

  test("tags are refused: no binary data, sets or custom types reach a play-test", () => {
    const problems = problemsOf("a: !!binary aGVsbG8=\nb: !js/function x\nc: !!set { x }\n");
    assert.equal(problems.length, 3);
    for (const p of problems) assert.match(p.message, /remove the tag/);
  });

  test("brackets nested absurdly deep are refused before parsing", () => {
    const [p] = problemsOf(`world: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`);
    assert.equal(p!.code, "playtest/syntax");
    assert.match(p!.message, /nest deeper/);
  });

  test(`a file over ${MAX_FILE_BYTES / 1024 / 1024} MiB is refused without parsing`, () => {
    const big = `world: w\nturns:\n${"  - act: wait\n".repeat(Math.ceil(MAX_FILE_BYTES / 14) + 10)}`;
    const started = process.cpuUsage();
    const [p] = problemsOf(big);
    assert.equal(p!.code, "playtest/too-large");
    assert.ok(cpuMsSince(started) < 1000);
  });

  test("a large legal file (2,000 steps) parses in reasonable time", () => {
    const text = `world: w.json\nturns:\n${"  - act: wait\n    expect: { fired: [a] }\n".repeat(2000)}`;
    const started = process.cpuUsage();
    const loaded = parsePlaytest(text, "big.test.yaml");
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.tests[0]!.steps.length, 2000);
    assert.ok(cpuMsSince(started) < 5000);
  });

  test("an empty file, a list and a scalar are not play-tests", () => {
    assert.equal(problemsOf("")[0]!.code, "playtest/syntax");
    assert.equal(problemsOf("# only a comment\n")[0]!.code, "playtest/syntax");
    for (const text of ["- a\n- b\n", "hello\n", "null\n"]) {
      const loaded = parsePlaytest(text, "x.test.yaml");
      assert.equal(loaded.problems[0]!.code, "playtest/wrong-type", text);
      assert.match(loaded.problems[0]!.message, /a mapping with `world:` and `turns:`/);
    }
  });

  test("__proto__ keys and merge keys are refused, not interpreted", () => {
    const loaded = parsePlaytest(
      yaml("world: w", "__proto__: { polluted: true }", "turns:", "  - <<: { act: a }"),
      "x.test.yaml",
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const codes = loaded.problems.map((p) => `${p.code}@${p.line}`);
    assert.ok(codes.includes("playtest/unknown-key@2"), codes.join(", "));
    assert.ok(codes.includes("playtest/unknown-key@4"), codes.join(", "));
  });

  test("YAML's .inf and .nan cannot be storage values (JSON has neither)", () => {
    const loaded = parsePlaytest(
      yaml("world: w", "turns:", "  - act: a", "    expect:", "      storage: { a: .inf, b: [.nan] }"),
      "x.test.yaml",
    );
    assert.deepEqual(
      loaded.problems.map((p) => [p.code, p.line, p.column]),
      [
        ["playtest/invalid-value", 5, 21],
        ["playtest/invalid-value", 5, 31],
      ],
    );
  });

  test("parsing never throws, whatever the bytes", () => {
    const samples = [
      "\u0000\u0001",
      "{{{{",
      "]]]",
      "key: 'unterminated",
      "? ? ?",
      ": :",
      "&a *a",
      "%YAML 9.9\n---\na: 1",
    ];
    for (const text of samples) {
      const loaded = parsePlaytest(text, "x.test.yaml");
      assert.ok(loaded.problems.length > 0, JSON.stringify(text));
    }
  });
});
