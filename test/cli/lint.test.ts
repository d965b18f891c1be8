import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { check } from "../../src/cli/check.ts";
import { lint } from "../../src/cli/lint.ts";
import { run } from "../../src/cli/main.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { assertOneLine, BASE_WORLD, captureIo, FIXTURES, ROOT, scratchDir } from "./helpers.ts";

const scratch = scratchDir();
const base = JSON.parse(readFileSync(BASE_WORLD, "utf8")) as Record<string, unknown>;
const worldFile = (name: string, patch: Record<string, unknown>) =>
  scratch.write(name, `${JSON.stringify(applyPatch(structuredClone(base), patch), null, 2)}\n`);

/** Valid for check; lint warns: a storage key written and never read, and an event nothing starts. */
const WARNINGS = worldFile("warnings.world.json", {
  narrativeEvents: { Storm: { title: "Storm", beats: "Rain over the marsh." } },
  triggers: {
    start_sheep: {
      effects: [
        { type: "quest-init", operator: "set", value: "Lost Sheep" },
        { type: "write-number", key: "sheep_lost", operator: "set", value: 12 },
      ],
    },
  },
});
/** Valid for check; lint finds an error (the quest's trigger has contradictory conditions) and its consequence (the quest never starts). */
const CONTRADICTION = worldFile("contradiction.world.json", {
  triggers: {
    start_sheep: {
      conditions: [
        { type: "game-tick", operator: "equals", value: 3 },
        { type: "game-tick", operator: "greaterThan", value: 5 },
      ],
    },
  },
});

async function lintJson(file: string, options: { maxWarnings?: string } = {}, stdin?: string) {
  const captured = captureIo(stdin === undefined ? {} : { stdin });
  const code = await lint(file, { format: "json", ...options }, captured.io);
  const report = JSON.parse(captured.stdout());
  return {
    code,
    report,
    codes: report.diagnostics.map((d: { code: string }) => d.code),
    stderr: captured.stderr(),
  };
}

describe("lint exit codes", () => {
  test("a world with nothing to report exits 0 and says so", async () => {
    const { io, stdout, stderr } = captureIo();
    assert.equal(await lint(BASE_WORLD, {}, io), 0);
    assert.equal(stdout(), "✔ no problems\nlint: 0 scripts (1 trigger, none with a script).\n");
    assert.equal(stderr(), "");
  });

  test("the example world lints without errors", async () => {
    const { code, report } = await lintJson(join(ROOT, "examples/harbor.world.json"));
    assert.equal(code, 0);
    assert.equal(report.errorCount, 0);
  });

  test("lint warnings alone exit 0; --max-warnings counts them", async () => {
    const { code, codes } = await lintJson(WARNINGS);
    assert.equal(code, 0);
    assert.deepEqual(codes.sort(), ["lint/event-never-started", "lint/storage-never-read"]);
    const over = captureIo();
    assert.equal(await lint(WARNINGS, { maxWarnings: "1" }, over.io), 1);
    assert.equal(
      over.stderr(),
      "taleforge: too many warnings (2; --max-warnings is 1). Fix them or raise the limit.\n",
    );
    assert.equal(await lint(WARNINGS, { maxWarnings: "2" }, captureIo().io), 0);
  });

  test("a lint error exits 1, where check passes the same world", async () => {
    const linted = await lintJson(CONTRADICTION);
    assert.equal(linted.code, 1);
    assert.deepEqual(linted.codes, ["lint/contradictory-conditions", "lint/quest-never-available"]);
    const { io, stdout } = captureIo();
    assert.equal(await check(CONTRADICTION, {}, io), 0);
    assert.equal(stdout(), "✔ no problems\n");
  });

  test("lint reports everything check reports, too", async () => {
    const broken = join(FIXTURES, "broken.world.json");
    const checked = captureIo();
    await check(broken, { format: "json" }, checked.io);
    const linted = await lintJson(broken);
    assert.equal(linted.code, 1);
    const checkCodes = JSON.parse(checked.stdout()).diagnostics.map((d: { code: string }) => d.code);
    assert.deepEqual(
      linted.codes.filter((code: string) => !code.startsWith("lint/")),
      checkCodes,
    );
  });

  test("- reads the world from stdin", async () => {
    const { code, report } = await lintJson("-", {}, readFileSync(CONTRADICTION, "utf8"));
    assert.deepEqual([code, report.file, report.errorCount], [1, "<stdin>", 1]);
  });

  test("a missing file, a bad format or a bad --max-warnings exit 2 with one line", async () => {
    const missing = captureIo();
    assert.equal(await lint(join(scratch.dir, "nowhere.world.json"), {}, missing.io), 2);
    assert.equal(missing.stdout(), "");
    assertOneLine(missing.stderr());
    const format = captureIo();
    assert.equal(await lint(BASE_WORLD, { format: "xml" }, format.io), 2);
    assert.equal(format.stderr(), 'taleforge: unknown format "xml". Use --format stylish, json, sarif.\n');
    const max = captureIo();
    assert.equal(await lint(BASE_WORLD, { maxWarnings: "many" }, max.io), 2);
    assertOneLine(max.stderr());
  });

  test("stdin that cannot be read exits 2", async () => {
    const { io, stderr } = captureIo({ stdin: new Error("EIO: i/o error, read") });
    assert.equal(await lint("-", {}, io), 2);
    assertOneLine(stderr());
  });
});

describe("lint output", () => {
  test("stylish: position, code, message, related position and the count", async () => {
    const { io, stdout } = captureIo();
    await lint(CONTRADICTION, {}, io);
    const text = stdout();
    assert.match(
      text,
      /^.*contradiction\.world\.json:\d+:\d+ {2}error {2}lint\/contradictory-conditions {2}This condition \(game-tick greaterThan 5\) cannot hold together with game-tick equals 3 in trigger "start_sheep"/,
    );
    assert.match(text, /↳ .*contradiction\.world\.json:\d+:\d+ {2}it clashes with this condition/);
    assert.match(text, /lint\/quest-never-available {2}Quest "Lost Sheep" can never become available/);
    assert.match(text, /✖ 1 error, 1 warning\nlint: 0 scripts \(1 trigger, none with a script\)\.\n$/);
  });

  test("SARIF lists the lint rules and points at the condition", async () => {
    const { io, stdout } = captureIo();
    await lint(CONTRADICTION, { format: "sarif" }, io);
    const sarif = JSON.parse(stdout());
    const [runLog] = sarif.runs;
    const ids = runLog.tool.driver.rules.map((rule: { id: string }) => rule.id);
    assert.ok(ids.includes("lint/contradictory-conditions"));
    const result = runLog.results[0];
    assert.equal(runLog.results.length, 2);
    assert.equal(result.ruleId, "lint/contradictory-conditions");
    assert.equal(ids[result.ruleIndex], result.ruleId);
    assert.equal(result.properties.jsonPath, "triggers.start_sheep.conditions[1]");
    assert.equal(result.relatedLocations.length, 1);
  });

  test("the command line runs it, with the formats and exit codes of check", async () => {
    const captured = captureIo();
    assert.equal(await run(["lint", "--format", "json", CONTRADICTION], captured.io), 1);
    assert.equal(JSON.parse(captured.stdout()).errorCount, 1);
    const help = captureIo();
    assert.equal(await run(["lint", "--help"], help.io), 0);
    assert.match(help.stdout(), /Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /);
  });
});
