import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { assertOneLine, captureIo, scratchDir } from "./helpers.ts";

/** `taleforge init`: the starter world checks and lints clean, its play-test passes, nothing is overwritten by accident. */
const scratch = scratchDir();

async function taleforge(args: string[], cwd: string) {
  const captured = captureIo();
  captured.io.cwd = cwd;
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("taleforge init", () => {
  const dir = scratch.dir;

  test("writes a world that checks and lints with no diagnostic, and a play-test that passes", async () => {
    const init = await taleforge(["init"], dir);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Wrote my\.world\.json and its play-test my\.test\.yaml/);
    for (const command of ["check", "lint"]) {
      const result = await taleforge([command, join(dir, "my.world.json"), "--format", "json"], dir);
      assert.equal(result.code, 0, result.stdout);
      const report = JSON.parse(result.stdout) as { diagnostics: unknown[] };
      assert.deepEqual(report.diagnostics, [], `${command} reports nothing`);
    }
    const playtest = await taleforge(["test", "my.test.yaml"], dir);
    assert.equal(playtest.code, 0, playtest.stdout);
    assert.match(playtest.stdout, /1 passed, 0 failed/);
  });

  test("the starter has what the issue asks: realm, two regions, three locations, an NPC, a quest opened and closed by two triggers, a script", () => {
    const world = JSON.parse(readFileSync(join(dir, "my.world.json"), "utf8"));
    assert.equal(Object.keys(world.realms).length, 1);
    assert.equal(Object.keys(world.regions).length, 2);
    assert.equal(Object.keys(world.locations).length, 3);
    assert.equal(Object.keys(world.npcs).length, 1);
    const triggers = Object.values(world.triggers) as { effects: { type: string }[]; script?: string }[];
    assert.ok(triggers.some((t) => t.effects.some((e) => e.type === "quest-init")));
    assert.ok(triggers.some((t) => t.effects.some((e) => e.type === "quest-complete")));
    assert.ok(triggers.some((t) => typeof t.script === "string"));
  });

  test("refuses to overwrite either file without --force, and writes neither", async () => {
    writeFileSync(join(dir, "mine.world.json"), "keep me");
    const refused = await taleforge(["init", "mine.world.json"], dir);
    assert.equal(refused.code, 2);
    assertOneLine(refused.stderr);
    assert.match(refused.stderr, /already exists.*--force/);
    assert.equal(readFileSync(join(dir, "mine.world.json"), "utf8"), "keep me");
    assert.equal(existsSync(join(dir, "mine.test.yaml")), false, "no half of the pair is written");

    const forced = await taleforge(["init", "mine.world.json", "--force"], dir);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, "mine.world.json"), "utf8")).configVersion, "V33");
  });

  test("--no-test writes only the world; an unwritable place is one line", async () => {
    const only = await taleforge(["init", "solo.json", "--no-test"], dir);
    assert.equal(only.code, 0, only.stderr);
    assert.equal(existsSync(join(dir, "solo.test.yaml")), false);
    const bad = await taleforge(["init", "no/such/folder/w.json"], dir);
    assert.equal(bad.code, 2);
    assertOneLine(bad.stderr);
  });
});
