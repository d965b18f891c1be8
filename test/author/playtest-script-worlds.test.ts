import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, describe, test } from "node:test";
import { formatResults } from "../../src/author/playtest/report/text.ts";
import { countResults, runPlaytests } from "../../src/author/playtest/run.ts";
import { scriptTriggerNames } from "../../src/author/playtest/script-triggers.ts";
import { test as testCommand } from "../../src/cli/test.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { captureIo, scratchDir } from "../cli/helpers.ts";

/**
 * Issue 16 items 7 and 8: `fired`/`notFired` may name what a script may add
 * (so that an author can assert that a script's addition was discarded), and
 * `taleforge test` runs a world whose errors all come from rules, as `play`
 * does, with the errors as a heading; `--strict` fails it. Offline provider
 * and the real sandbox, as the command runs.
 */
const scratch = scratchDir();
const sandbox = createSandbox();
after(() => sandbox.close());
const BASE = JSON.parse(readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"));
const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const tick1 = { type: "game-tick", operator: "equals", value: 1 };

function world(name: string, triggers: Record<string, unknown>): string {
  const value = applyPatch(structuredClone(BASE), { triggers });
  return scratch.write(name, JSON.stringify(value, null, 2));
}

async function run(file: string, text: string, options: { strict?: boolean } = {}) {
  const path = scratch.write(file, text);
  return runPlaytests([path], { scripts: sandbox, cwd: scratch.dir, ...options });
}

describe("names a script may add", () => {
  test("literal keys, Object.assign keys, and computed writes are told apart", () => {
    const found = scriptTriggerNames([
      'triggers.mismatch = { name: "x", conditions: [], effects: [] };',
      'triggers["quoted key"].recurring = true; Object.assign(triggers, { assigned: {} });',
      "if (triggers.read_only) log('seen');",
      "this is not javascript",
    ]);
    assert.deepEqual([...found.names].sort(), ["assigned", "mismatch", "quoted key", "read_only"]);
    assert.equal(found.anyName, false);
    assert.equal(scriptTriggerNames(['const k = "a" + 1; triggers[k] = {};']).anyName, true);
    assert.equal(scriptTriggerNames(["for (const k in triggers) log(k);"]).anyName, false);
    assert.equal(scriptTriggerNames(["const t = triggers; t.x = {};"]).anyName, true);
  });

  test("notFired on a trigger a script adds under another name: the discarded addition never fires", async () => {
    const file = world("adds.world.json", {
      adder: {
        name: "adder",
        conditions: [tick1],
        effects: [],
        script: 'triggers.mismatch = { name: "not_mismatch", conditions: [], effects: [] };',
      },
    });
    const result = await run(
      "adds.test.yaml",
      yaml(
        `world: ${JSON.stringify(file)}`,
        "turns:",
        "  - act: wait",
        "    expect: { fired: [adder], notFired: [mismatch], log: { contains: [trigger-script-error, keys/name-mismatch] } }",
        "  - act: wait",
        "    expect: { notFired: [mismatch] }",
      ),
    );
    assert.deepEqual(result.files[0]!.problems, []);
    assert.deepEqual(
      result.files[0]!.tests[0]!.failures.map((f) => f.message),
      [],
      "the addition is discarded and never fires",
    );
  });

  test("a name nothing can produce keeps its did-you-mean error; with a computed key, notFired accepts any name", async () => {
    const literal = world("literal.world.json", {
      adder: { name: "adder", conditions: [tick1], effects: [], script: "triggers.mismatch = {};" },
    });
    const ghost = await run(
      "ghost.test.yaml",
      yaml(
        `world: ${JSON.stringify(literal)}`,
        "turns:",
        "  - act: wait",
        "    expect: { notFired: [mismatc] }",
      ),
    );
    assert.match(
      ghost.files[0]!.tests[0]!.failures[0]!.message,
      /No trigger "mismatc".*Did you mean "mismatch"\?/,
    );

    const computed = world("computed.world.json", {
      adder: {
        name: "adder",
        conditions: [tick1],
        effects: [],
        script: 'const key = "gen_" + 1; triggers[key] = { name: key, conditions: [], effects: [] };',
      },
    });
    const any = await run(
      "any.test.yaml",
      yaml(
        `world: ${JSON.stringify(computed)}`,
        "turns:",
        "  - act: wait",
        "    expect: { notFired: [anything_at_all] }",
        "  - act: wait",
        "    expect: { fired: [gen_1] }",
      ),
    );
    assert.deepEqual(
      any.files[0]!.tests[0]!.failures.map((f) => f.message),
      [],
    );
    const strictFired = await run(
      "any-fired.test.yaml",
      yaml(
        `world: ${JSON.stringify(computed)}`,
        "turns:",
        "  - act: wait",
        "    expect: { fired: [nothing_adds_me] }",
      ),
    );
    assert.match(strictFired.files[0]!.tests[0]!.failures[0]!.message, /No trigger "nothing_adds_me"/);
  });
});

describe("a world whose errors all come from rules", () => {
  // A script that does not parse is a rule error (script/syntax-error); at run time it is skipped and logged, its typed effects apply.
  const broken = () =>
    world("broken-script.world.json", {
      start_sheep: {
        script: "if (storage.seen { skip = true; }",
        effects: [
          { type: "quest-init", operator: "set", value: "Lost Sheep" },
          { type: "write-number", key: "typed", operator: "set", value: 1 },
        ],
      },
    });
  const playtest = (file: string) =>
    yaml(
      `world: ${JSON.stringify(file)}`,
      "turns:",
      "  - act: wait",
      "    expect:",
      "      fired: [start_sheep]",
      "      storage: { typed: 1 }",
      "      log: { contains: [trigger-script-error] }",
    );

  test("runs as play runs it, and the report shows the errors as a heading", async () => {
    const file = broken();
    const result = await run("broken.test.yaml", playtest(file));
    assert.deepEqual(countResults(result), { passed: 1, failed: 0 });
    assert.equal(result.worldErrors?.length, 1);
    assert.match(result.worldErrors![0]!.errors[0]!, /script\/syntax-error/);
    const text = formatResults(result, { color: false });
    assert.match(
      text,
      /^⚠ broken-script\.world\.json has 1 error, all from rules: its play-tests ran anyway/,
    );
    assert.match(text.split("\n")[1]!, /^ {4}broken-script\.world\.json:\d+:\d+ script\/syntax-error: /);
  });

  test("--strict fails it, and the command exits 1", async () => {
    const file = broken();
    const result = await run("strict.test.yaml", playtest(file), { strict: true });
    assert.match(
      result.files[0]!.tests[0]!.failures[0]!.message,
      /has 1 error, so its play-tests cannot run \(--strict\)/,
    );
    const path = scratch.write("cmd.test.yaml", playtest(file));
    for (const [strict, code] of [
      [false, 0],
      [true, 1],
    ] as const) {
      const captured = captureIo();
      captured.io.cwd = scratch.dir;
      assert.equal(await testCommand([path], { strict }, captured.io), code, captured.stdout());
    }
  });

  test("a world with a shape error still cannot run", async () => {
    const file = scratch.write("shape.world.json", '{ "configVersion": "V33", "heroesVersion": 33 }');
    const result = await run(
      "shape.test.yaml",
      yaml(`world: ${JSON.stringify(file)}`, "turns: [{ act: a }]"),
    );
    assert.match(result.files[0]!.tests[0]!.failures[0]!.message, /so its play-tests cannot run: /);
  });
});
