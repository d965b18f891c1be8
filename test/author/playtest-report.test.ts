import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { WorldCoverage } from "../../src/author/playtest/coverage.ts";
import { formatCoverage } from "../../src/author/playtest/report/coverage.ts";
import { formatJunit } from "../../src/author/playtest/report/junit.ts";
import { formatResults } from "../../src/author/playtest/report/text.ts";
import type { FileResult, RunResult, TestResult } from "../../src/author/playtest/run.ts";
import { child, children, parseXml, textOf } from "../helpers/xml.ts";

/** The reporters are pure functions of the results: these are built by hand. */
const HOSTILE = `odd <name> & "quotes" 'too' ]]> \u0001\u0008 tab\tend`;

function testResult(name: string, failures: TestResult["failures"] = []): TestResult {
  return { name, passed: failures.length === 0, failures, steps: 3, ran: 3, durationMs: 12.4 };
}

const good: FileResult = {
  file: "tests/good.test.yaml",
  source: { name: "tests/good.test.yaml", text: "" },
  problems: [],
  tests: [testResult("walkthrough"), testResult(HOSTILE)],
};
const failing: FileResult = {
  file: "tests/side.test.yaml",
  source: { name: "tests/side.test.yaml", text: "" },
  problems: [],
  tests: [
    {
      ...testResult("the bell", [
        {
          message: 'step 4: quest "Bell": expected completed, got accepted.',
          path: [],
          line: 23,
          column: 9,
          step: 4,
        },
        {
          message: 'step 5: expected "ring" to fire; it did not. Fired: nothing.',
          path: [],
          line: 30,
          column: 17,
          step: 5,
        },
      ]),
      ran: 5,
      steps: 6,
    },
  ],
};
const broken: FileResult = {
  file: "tests/bad.test.yaml",
  source: { name: "tests/bad.test.yaml", text: "world: w.json\nexpct: {}\nturns: [{ act: a }]\n" },
  problems: [
    {
      code: "playtest/unknown-key",
      message: '`expct` is not a key of a play-test file. Did you mean "expect"?',
      path: ["expct"],
      line: 2,
      column: 1,
    },
  ],
  tests: [],
};
const result: RunResult = { files: [good, failing, broken], coverage: [] };

describe("text", () => {
  const text = formatResults(result, { color: false });
  const lines = text.split("\n");

  test("one line per test, with steps and time", () => {
    assert.ok(lines.includes("✔ tests/good.test.yaml › walkthrough (3 steps, 12 ms)"), text);
    assert.ok(lines.includes("✖ tests/side.test.yaml › the bell (5 of 6 steps, 12 ms)"), text);
  });

  test("one line per failure, with the file position of the expectation", () => {
    assert.ok(
      lines.includes(
        '    tests/side.test.yaml:23:9  step 4: quest "Bell": expected completed, got accepted.',
      ),
      text,
    );
    assert.ok(
      lines.includes(
        '    tests/side.test.yaml:30:17  step 5: expected "ring" to fire; it did not. Fired: nothing.',
      ),
    );
  });

  test("a file that cannot run: its problems with code frames, counted as one failure", () => {
    assert.ok(lines.includes("✖ tests/bad.test.yaml (cannot run: 1 problem in the file)"), text);
    assert.ok(
      lines.includes(
        '    tests/bad.test.yaml:2:1  playtest/unknown-key  `expct` is not a key of a play-test file. Did you mean "expect"?',
      ),
    );
    assert.ok(lines.includes("      > 2 | expct: {}"));
    assert.ok(lines.includes("        1 | world: w.json"));
  });

  test("the closing line counts tests; colour only when asked", () => {
    assert.equal(lines.at(-2), "2 passed, 2 failed");
    assert.doesNotMatch(text, /\u001b\[/);
    assert.match(formatResults(result, { color: true }), /\u001b\[31m✖/);
  });

  test("no test at all still closes with a count", () => {
    assert.equal(formatResults({ files: [], coverage: [] }, { color: false }), "0 passed, 0 failed\n");
  });
});

describe("JUnit XML", () => {
  const xml = formatJunit(result);
  const root = parseXml(xml);

  test("well-formed, whatever the names hold; one <testsuites> with the totals", () => {
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
    assert.equal(root.name, "testsuites");
    assert.deepEqual(
      [root.attributes.tests, root.attributes.failures, root.attributes.errors],
      ["4", "1", "1"],
    );
  });

  test("one <testsuite> per file, one <testcase> per play-test; names escaped and read back", () => {
    const suites = children(root, "testsuite");
    assert.deepEqual(
      suites.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures, s.attributes.errors]),
      [
        ["tests/good.test.yaml", "2", "0", "0"],
        ["tests/side.test.yaml", "1", "1", "0"],
        ["tests/bad.test.yaml", "1", "0", "1"],
      ],
    );
    const cases = children(suites[0]!, "testcase");
    assert.equal(cases[1]!.attributes.name, HOSTILE.replace(/[\u0001\u0008]/g, "\ufffd"));
    assert.equal(cases[0]!.attributes.classname, "tests/good.test.yaml");
    assert.equal(cases[0]!.attributes.time, "0.012");
  });

  test("a failed play-test: one <failure> with the first message and every failure with its position", () => {
    const testcase = child(children(root, "testsuite")[1]!, "testcase")!;
    const failure = child(testcase, "failure")!;
    assert.equal(
      failure.attributes.message,
      'tests/side.test.yaml:23:9 step 4: quest "Bell": expected completed, got accepted. (and 1 more)',
    );
    assert.equal(
      textOf(failure),
      [
        'tests/side.test.yaml:23:9  step 4: quest "Bell": expected completed, got accepted.',
        'tests/side.test.yaml:30:17  step 5: expected "ring" to fire; it did not. Fired: nothing.',
      ].join("\n"),
    );
  });

  test("a file that cannot run is an <error> with its problems", () => {
    const testcase = child(children(root, "testsuite")[2]!, "testcase")!;
    const error = child(testcase, "error")!;
    assert.equal(error.attributes.type, "playtest/unknown-key");
    assert.match(
      textOf(error),
      /^tests\/bad\.test\.yaml:2:1 {2}playtest\/unknown-key {2}`expct` is not a key/,
    );
  });
});

describe("coverage", () => {
  const coverage: WorldCoverage[] = [
    {
      world: "examples/harbor.world.json",
      triggers: [
        { trigger: "a", origin: "world", fired: 3 },
        { trigger: "b", origin: "world", fired: 0 },
        { trigger: "Q_objective", origin: "engine", fired: 1 },
        { trigger: "added", origin: "script", fired: 0 },
      ],
      effects: [
        { owner: "a", index: 0, type: "story", applied: 3 },
        { owner: "b", index: 0, type: "write-boolean", applied: 0 },
      ],
      quests: [
        { quest: "Q", reached: ["hidden", "available", "completed"] },
        { quest: "R", reached: ["hidden"] },
      ],
    },
  ];
  const text = formatCoverage(coverage, { color: false });
  const lines = text.split("\n");

  test("totals per world", () => {
    assert.equal(lines[0], "Coverage of examples/harbor.world.json");
    assert.ok(lines.includes("  triggers  2/4 (50%) fired"));
    assert.ok(lines.includes("  effects   1/2 (50%) applied"));
    assert.ok(lines.includes("  quests    1/2 (50%) completed"));
  });

  test("what fired (with counts), and what never did", () => {
    assert.ok(lines.includes("    a ×3, Q_objective ×1 (engine-made)"), text);
    assert.ok(lines.includes("  Never fired (2):"));
    assert.ok(lines.includes("    b"));
    assert.ok(lines.includes("    added (added by a script)"));
    assert.ok(lines.includes("  Effects never applied (1):"));
    assert.ok(lines.includes("    b effects[0] write-boolean"));
  });

  test("the statuses each quest reached", () => {
    assert.ok(lines.includes("    Q: hidden, available, completed"));
    assert.ok(lines.includes("    R: hidden"));
  });

  test("everything covered says so", () => {
    const full = formatCoverage(
      [{ world: "w", triggers: [{ trigger: "a", origin: "world", fired: 1 }], effects: [], quests: [] }],
      { color: false },
    );
    assert.match(full, /Every trigger fired\./);
    assert.match(full, /Every effect applied\./);
  });
});
