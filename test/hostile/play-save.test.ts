import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { playWith, ROOT, scratchDir } from "../cli/helpers.ts";

const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const isobel = ["--premade", "Isobel Carrow"];

describe("play: saves that cannot happen are refused and never reported as done (issue 15 items 6, 14)", () => {
  test("--save naming a FIFO or a device is refused before the game starts; the FIFO stays a FIFO", async () => {
    const dir = scratchDir();
    const fifo = join(dir.dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    for (const target of [fifo, "/dev/null"]) {
      const { code, out, err } = await playWith([EXAMPLE, ...isobel, "--save", target], ["look", "/quit"]);
      assert.equal(code, 2, out);
      assert.match(err, /--save .*: .* is a (pipe \(FIFO\)|device), not a regular file/);
    }
    assert.ok(lstatSync(fifo).isFIFO());
    const slash = await playWith([EXAMPLE, ...isobel], [`/save ${fifo}`, "/quit"]);
    assert.match(slash.out, /Could not save to .*pipe: .*not a regular file/);
    assert.ok(lstatSync(fifo).isFIFO());
  });

  test("when saving fails, quitting does not say Saved to", async () => {
    const dir = scratchDir();
    // A folder that does not exist: the target itself is fine, the write fails.
    const save = join(dir.dir, "missing", "game.json");
    const { code, out } = await playWith([EXAMPLE, ...isobel, "--save", save], ["look around", "/quit"]);
    assert.equal(code, 0);
    assert.match(out, /Could not save to .*game\.json/);
    assert.doesNotMatch(out, /Saved to/);
    assert.match(out, /The game was NOT saved to .*game\.json\./);
    assert.deepEqual(readdirSync(dir.dir), []);
  });

  test("a damaged save is refused in the player's words, not the library's", async () => {
    const dir = scratchDir();
    const save = dir.write("cut.json", '{"format":"taleforge-save",');
    const { code, err } = await playWith([EXAMPLE, "--load", save], ["/quit"]);
    assert.notEqual(code, 0);
    assert.match(err, /not valid JSON/);
    assert.doesNotMatch(err, /session\.save\(\)/);
  });

  test("--load into an edited world: resumed, with what changed that matters (issue 16 item 9)", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "game.json");
    const first = await playWith([EXAMPLE, ...isobel, "--save", save], ["walk to the Gutted Eel", "/quit"]);
    assert.equal(first.code, 0, first.err);
    const world = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    world.worldLore = { ...world.worldLore, "Fresh Lore": { text: "Added after the save." } };
    const edited = dir.write("edited.world.json", JSON.stringify(world));
    const second = await playWith([edited, "--load", save], ["/quit"]);
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, /Resumed at turn 1/);
    assert.match(second.out, /The world file changed since this save; nothing the game depends on did\./);
  });
});
