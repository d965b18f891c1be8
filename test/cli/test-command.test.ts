import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { run } from "../../src/cli/main.ts";
import { test as testCommand } from "../../src/cli/test.ts";
import { children, parseXml } from "../helpers/xml.ts";
import { assertOneLine, captureIo, scratchDir } from "./helpers.ts";

/**
 * `taleforge test`, called in-process: exit codes (0 all passed, 1 a failure
 * or a broken file, 2 could not run), output lines, folders, JUnit and
 * coverage. The play-tests here use the example world with the offline
 * provider and the real sandbox, as the command does.
 */
const HARBOR = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));
const scratch = scratchDir();
const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const world = `world: ${JSON.stringify(HARBOR)}`;

const PASSING = yaml(world, "turns:", "  - act: wait on the pier", "    expect: { fired: [docks_gossip] }");
const FAILING = yaml(
  world,
  "turns:",
  "  - act: wait on the pier",
  "    expect:",
  "      fired: [meet_mara]",
  '      quests: { "The Keeper\'s Debt": completed }',
);

async function runIn(dir: string, paths: string[], options: Record<string, unknown> = {}) {
  const captured = captureIo();
  captured.io.cwd = dir;
  const code = await testCommand(paths, options, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("taleforge test: exit codes and output", () => {
  const dir = join(scratch.dir, "codes");
  mkdirSync(dir);
  scratch.write("codes/pass.test.yaml", PASSING);
  scratch.write("codes/fail.test.yaml", FAILING);
  scratch.write("codes/bad.test.yaml", yaml(world, "turns:", "  - act: wait", "    expct: {}"));

  test("all passed: exit 0, one line per test, the closing count", async () => {
    const { code, stdout, stderr } = await runIn(dir, ["pass.test.yaml"]);
    assert.equal(code, 0);
    assert.equal(stderr, "");
    assert.match(stdout, /^✔ pass\.test\.yaml › pass \(1 step, [\d.]+ m?s\)\n\n1 passed, 0 failed\n$/);
  });

  test("a failed expectation: exit 1, one line per failure with its position", async () => {
    const { code, stdout } = await runIn(dir, ["fail.test.yaml"]);
    assert.equal(code, 1);
    const lines = stdout.split("\n");
    assert.match(lines[0]!, /^✖ fail\.test\.yaml › fail \(1 step, /);
    assert.match(lines[1]!, /^ {4}fail\.test\.yaml:5:15 {2}step 1: expected "meet_mara" to fire; it did not/);
    assert.match(
      lines[2]!,
      /^ {4}fail\.test\.yaml:6:17 {2}step 1: quest "The Keeper's Debt": expected completed, got hidden/,
    );
    assert.equal(lines.at(-2), "0 passed, 1 failed");
  });

  test("a broken play-test file: exit 1, its problem with position and a code frame", async () => {
    const { code, stdout } = await runIn(dir, ["bad.test.yaml", "pass.test.yaml"]);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /✖ bad\.test\.yaml \(cannot run: 1 problem in the file\)\n {4}bad\.test\.yaml:4:5 {2}playtest\/unknown-key {2}`expct` is not a key of `turns\[0\]`\. Did you mean "expect"\?/,
    );
    assert.match(stdout, /> 4 \| {5}expct: \{\}/);
    assert.match(stdout, /1 passed, 1 failed\n$/);
  });

  test("a path that does not exist: exit 2, one line, nothing run", async () => {
    const { code, stdout, stderr } = await runIn(dir, ["pass.test.yaml", "nowhere.test.yaml"]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assertOneLine(stderr);
    assert.match(stderr, /no such file or folder: nowhere\.test\.yaml\. Check the path/);
  });

  test("a folder without play-tests, a bad format, no path: exit 2", async () => {
    const empty = join(scratch.dir, "empty");
    mkdirSync(empty);
    const none = await runIn(scratch.dir, ["empty"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no play-tests \(\*\.test\.yaml, \*\.test\.yml, \*\.test\.json\) in empty/);
    const format = await runIn(dir, ["pass.test.yaml"], { format: "tap" });
    assert.equal(format.code, 2);
    assertOneLine(format.stderr);
    assert.match(format.stderr, /unknown format "tap"\. Use --format text or junit\./);
    assert.equal((await runIn(dir, [])).code, 2);
  });

  test("the registered command: run() parses the options and returns the exit code", async () => {
    const captured = captureIo();
    captured.io.cwd = dir;
    assert.equal(await run(["test", "pass.test.yaml", "--format", "junit"], captured.io), 0);
    assert.match(captured.stdout(), /^<\?xml/);
    const help = captureIo();
    assert.equal(await run(["test", "--help"], help.io), 0);
    assert.match(help.stdout(), /--coverage/);
  });
});

describe("taleforge test: folders", () => {
  test("searched recursively for *.test.yaml, *.test.yml and *.test.json, sorted; others skipped", async () => {
    for (const sub of ["tree", "tree/b", "tree/a", "tree/node_modules", "tree/.hidden"])
      mkdirSync(join(scratch.dir, sub), { recursive: true });
    scratch.write("tree/b/two.test.yml", PASSING);
    scratch.write("tree/a/one.test.yaml", PASSING);
    scratch.write("tree/three.test.json", JSON.stringify({ world: HARBOR, turns: [{ act: "wait" }] }));
    scratch.write("tree/notes.yaml", "not: a play-test\n");
    scratch.write("tree/node_modules/dep.test.yaml", "broken: [\n");
    scratch.write("tree/.hidden/x.test.yaml", "broken: [\n");
    const { code, stdout } = await runIn(scratch.dir, ["tree"]);
    assert.equal(code, 0, stdout);
    const files = stdout
      .split("\n")
      .filter((l) => l.startsWith("✔"))
      .map((l) => l.split(" ")[1]);
    assert.deepEqual(files, ["tree/a/one.test.yaml", "tree/b/two.test.yml", "tree/three.test.json"]);
  });
});

describe("taleforge test: JUnit and coverage", () => {
  const dir = join(scratch.dir, "ci");
  mkdirSync(dir);
  scratch.write("ci/pass.test.yaml", PASSING);
  scratch.write("ci/fail.test.yaml", FAILING);

  test("--format junit: one XML document on stdout, exit code as for text", async () => {
    const { code, stdout } = await runIn(dir, ["."], { format: "junit" });
    assert.equal(code, 1);
    const root = parseXml(stdout);
    assert.deepEqual([root.attributes.tests, root.attributes.failures], ["2", "1"]);
    assert.deepEqual(
      children(root, "testsuite").map((s) => s.attributes.name),
      ["fail.test.yaml", "pass.test.yaml"],
    );
  });

  test("--coverage prints the coverage after the results; with junit it goes to stderr", async () => {
    const text = await runIn(dir, ["pass.test.yaml"], { coverage: true });
    assert.equal(text.code, 0, "coverage does not change the exit code");
    assert.match(
      text.stdout,
      /1 passed, 0 failed\n\nCoverage of .*harbor\.world\.json\n {2}triggers {2}\d+\/37 \(\d+%\) fired/,
    );
    assert.match(text.stdout, /Never fired \(\d+\):\n {4}keeper_rumour/);
    const junit = await runIn(dir, ["pass.test.yaml"], { format: "junit", coverage: true });
    parseXml(junit.stdout);
    assert.match(junit.stderr, /^Coverage of /);
  });
});
