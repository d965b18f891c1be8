import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { newSavePath, saveFolder } from "../../src/cli/play/save-home.ts";
import { playAtTerminal, ROOT } from "./helpers.ts";

/**
 * A game played at a terminal without --save is kept in the player's state
 * folder after every turn, so that quitting or closing the window never loses
 * it; the player is told where, and how to go on later.
 */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "tf-home-"));
  homes.push(home);
  return home;
}

function savesIn(home: string): string[] {
  const folder = join(home, ".local/state/taleforge/saves");
  try {
    return readdirSync(folder).map((name) => join(folder, name));
  } catch {
    return [];
  }
}

/** The resume command as one line, as a shell reads it (a line of its own, a "\\" continuation). */
function asTyped(out: string): string {
  return out.replace(/To go on later:\n\s+/g, "To go on later: ").replace(/ \\\n\s+/g, " ");
}

/** The lines after /quit wider than the terminal (playAtTerminal's 80 columns: 79 usable). */
function overWidth(out: string): string[] {
  const tail = out.slice(out.lastIndexOf("/quit"));
  // Colours are not columns.
  return tail.split("\n").filter((line) => line.replace(/\u001b\[[0-9;]*m/g, "").length > 79);
}

describe("taleforge play at a terminal keeps the game without --save", () => {
  test("the game is saved after its turns, and quitting says where and how to go on", async () => {
    const home = newHome();
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow"],
      ["walk to the Gutted Eel", "/quit"],
      { HOME: home },
    );
    assert.equal(code, 0);
    const saves = savesIn(home);
    assert.equal(saves.length, 1);
    const [save] = saves as [string];
    assert.match(save, /harbor-\d{4}-\d{2}-\d{2}-\d{6}\.json$/);
    const shown = `~${save.slice(home.length)}`;
    assert.ok(out.replace(/\s+/g, " ").includes(`This game is saved after every turn to ${shown}`), out);
    assert.ok(out.includes(`Saved to ${shown}.`), out);
    assert.ok(asTyped(out).includes(`To go on later: taleforge play ${EXAMPLE} --load ${shown}`), out);
    assert.deepEqual(overWidth(out), [], "the farewell lines fit the 80-column terminal");
    assert.equal(statSync(save).mode & 0o777, 0o600, "only the player reads their save");
    const state = JSON.parse(readFileSync(save, "utf8")) as { state: { tick: number } };
    assert.ok(state.state.tick >= 1, "the turn played is in the save");

    // And the file resumes the game where it was left.
    const resumed = await playAtTerminal(["--load", save, "--seed", "11"], ["/quit"], { HOME: home });
    assert.equal(resumed.code, 0);
    assert.match(resumed.out, /Resumed at turn 1/);
    assert.equal(savesIn(home).length, 1, "a resumed game saves where it came from, not to a new file");
  });

  test("started by npm start on the example world, the way back is npm start", async () => {
    const home = newHome();
    const { code, out } = await playAtTerminal(["--seed", "11", "--premade", "Isobel Carrow"], ["/quit"], {
      HOME: home,
      npm_lifecycle_event: "start",
    });
    assert.equal(code, 0);
    const [save] = savesIn(home) as [string];
    assert.ok(asTyped(out).includes(`To go on later: npm start -- --load ~${save.slice(home.length)}`), out);
    assert.deepEqual(overWidth(out), []);
    // A command that does not fit goes on a line of its own, its file after a shell continuation.
    if (process.platform !== "win32")
      assert.ok(
        out.includes(`To go on later:\n  npm start -- --load \\\n    ~${save.slice(home.length)}`),
        out,
      );
  });

  test("a game left before its first turn is kept too, and two games never share a file", async () => {
    const home = newHome();
    const args = [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow"];
    await Promise.all([
      playAtTerminal(args, ["/quit"], { HOME: home }),
      playAtTerminal(args, ["/quit"], { HOME: home }),
    ]);
    const saves = savesIn(home);
    assert.equal(saves.length, 2, saves.join(", "));
    for (const save of saves) assert.ok(readFileSync(save, "utf8").length > 100, `${save} holds the opening`);
  });

  test("--no-save saves nothing; a piped game and a home-less environment are not saved by themselves", async () => {
    const home = newHome();
    const none = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow", "--no-save"],
      ["look around", "/quit"],
      { HOME: home },
    );
    assert.equal(none.code, 0);
    assert.doesNotMatch(none.out, /saved after every turn|Saved to/);
    const piped = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow"],
      ["look around", "/quit"],
      { HOME: home },
      false,
    );
    assert.equal(piped.code, 0);
    assert.deepEqual(savesIn(home), []);

    const homeless = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow"],
      ["/quit"],
      {},
    );
    assert.equal(homeless.code, 0);
    assert.match(
      homeless.out.replace(/\s+/g, " "),
      /This game is not saved by itself: no home folder is set/,
    );
  });

  test("--save FILE still decides, and the state folder follows XDG_STATE_HOME", async () => {
    const home = newHome();
    const state = newHome();
    const file = join(home, "mine.json");
    const chosen = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow", "--save", file],
      ["look around", "/quit"],
      { HOME: home, XDG_STATE_HOME: state },
    );
    assert.equal(chosen.code, 0);
    assert.ok(statSync(file).size > 100);
    assert.doesNotMatch(chosen.out, /To go on later/);
    assert.deepEqual(readdirSync(state), [], "nothing in the state folder when --save names a file");
    assert.equal(saveFolder({ HOME: home, XDG_STATE_HOME: state }), join(state, "taleforge/saves"));
    assert.equal(
      saveFolder({ HOME: home, XDG_STATE_HOME: "relative" }),
      join(home, ".local/state/taleforge/saves"),
    );
  });

  test("a state folder that cannot be made is said, and the game is played anyway", async () => {
    const home = newHome();
    writeFileSync(join(home, ".local"), "a file where a folder should be");
    const made = await newSavePath({ HOME: home }, "x.world.json", new Date());
    assert.equal(made.ok, false);
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--premade", "Isobel Carrow"],
      ["look around", "/quit"],
      { HOME: home },
    );
    assert.equal(code, 0);
    assert.match(
      out.replace(/\s+/g, " "),
      /This game is not saved by itself: .*could not be created \(ENOTDIR\)/,
    );
    assert.match(out, /Farewell\./);
  });
});
