import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { captureIo, playWith, ROOT, scratchDir } from "./helpers.ts";

/**
 * The story controls at the terminal (issue 33): `taleforge play` piped, with
 * /retry, /undo, /alter, /rewind, /branches, /branch and /diff typed as a
 * player would, on the example world offline with the real sandbox.
 */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const isobel = ["--premade", "Isobel Carrow"];
const WALK = ["walk to the Gutted Eel", "n", "talk to Mara Venn", "travel to the Old Lighthouse"];

/** The transcript after the line that typed `command` (its own output up to the next prompt). */
function after(out: string, command: string): string {
  const at = out.indexOf(`> ${command}\n`);
  assert.ok(at >= 0, `typed: ${command}`);
  const rest = out.slice(at + command.length + 3);
  const next = rest.indexOf("\n> ");
  return next === -1 ? rest : rest.slice(0, next);
}

describe("taleforge play: story controls", () => {
  test("/rewind goes back to a turn, the next turn starts a branch, /branches lists both and /diff compares them", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel],
      [
        ...WALK,
        "/rewind 1",
        "walk to the Counting House",
        "/branches",
        "/diff 1:3 2:2",
        "/branch 1",
        "/quit",
      ],
    );
    assert.equal(code, 0, err);
    assert.match(
      after(out, "/rewind 1"),
      /Back at turn 1\. Your next turn starts a new branch; the story up to turn 3 stays/,
    );
    const branches = after(out, "/branches");
    assert.match(branches, /^ {2} 1 {2}the first story {2}\(from the start, to turn 3\)$/m);
    assert.match(branches, /^\* {2}2 {2}walk to the Counting House {2}\(from 1 after turn 1, to turn 2\)$/m);
    const diff = after(out, "/diff 1:3 2:2");
    assert.match(diff, /From 1:3 \(turn 3\) to 2:2 \(turn 2\):/);
    assert.match(diff, /Place: Old Lighthouse .* -> /);
    assert.match(diff, /Trigger "meet_mara": fired on turn 2 -> not fired/);
    assert.match(after(out, "/branch 1"), /On branch 1 \(the first story\), at turn 3\./);
  });

  test("/retry plays the last turn again as a new draw and keeps the first as a branch; /undo gives the action back", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel],
      ["walk to the Gutted Eel", "n", "look around", "/retry", "/branches", "/undo", "/branches", "/quit"],
    );
    assert.equal(code, 0, err);
    const retried = after(out, "/retry");
    assert.match(retried, /Draw 2 of this turn; the earlier one is kept as a branch/);
    assert.match(retried, /The same triggers fired as before\.|Fired this time only|No longer fired/);
    const first = after(out, "look around");
    // Another draw: the offline narrator words a stay at the same place another way.
    assert.notEqual(retried.split("Draw 2")[0]!.trim(), first.trim());
    assert.match(after(out, "/branches"), /2 {2}look around \(draw 2\)/);
    const undone = out.slice(out.indexOf("> /undo\n"));
    assert.match(undone, /Undone: back to turn 1\.\nTaken back: > look around/);
    // The undone draw is gone; the first draw stays.
    const list = after(undone, "/branches");
    assert.doesNotMatch(list, /draw 2/);
    assert.match(list, /1 {2}the first story {2}\(from the start, to turn 2; you are at turn 1\)/);
  });

  test("/alter replaces the last narration; the log keeps the narrator's text, marked as altered", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "game.json");
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel, "--save", save],
      ["walk to the Gutted Eel", "n", "/alter", "/alter The Eel is empty but for a grey cat.", "/quit"],
    );
    assert.equal(code, 0, err);
    assert.match(
      after(out, "/alter"),
      /An editor opens only at a terminal\. Or type the new text on the line/,
    );
    assert.match(
      after(out, "/alter The Eel is empty but for a grey cat."),
      /The narration of turn 1 now reads as you wrote it/,
    );
    const saved = JSON.parse(readFileSync(save, "utf8"));
    assert.equal(saved.state.history.story.at(-1).text, "The Eel is empty but for a grey cat.");
    assert.match(
      saved.state.log.at(-1).message,
      /^The narration of turn 1 was altered by the player\. The narrator wrote: "/,
    );
    // The turn's node (the quest answer "n" came after it, and keeps the new text too) says who altered what.
    const altered = saved.history.nodes.filter((n: { altered?: unknown }) => n.altered);
    assert.equal(altered.length, 1);
    assert.equal(altered[0].tick, 1);
    assert.equal(altered[0].altered.by, "the player");
    assert.equal(altered[0].story, "The Eel is empty but for a grey cat.");
    assert.match(altered[0].altered.original, /Gutted Eel/);
  });

  test("--load restores the current branch with every branch kept", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "game.json");
    const first = await playWith(
      [EXAMPLE, ...isobel, "--save", save],
      [...WALK, "/rewind 2", "look around", "/quit"],
    );
    assert.equal(first.code, 0, first.err);
    const resumed = await playWith([EXAMPLE, "--load", save], ["/branches", "/branch 1", "/quit"]);
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.out, /Resumed at turn 3/);
    assert.match(
      after(resumed.out, "/branches"),
      /\* {2}2 {2}look around {2}\(from 1 after turn 2, to turn 3\)/,
    );
    assert.match(after(resumed.out, "/branch 1"), /On branch 1 \(the first story\), at turn 3\./);
  });

  test("a save whose history is damaged resumes from its turn and says the branches are gone", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "game.json");
    const first = await playWith([EXAMPLE, ...isobel, "--save", save], ["walk to the Gutted Eel", "/quit"]);
    assert.equal(first.code, 0, first.err);
    const file = JSON.parse(readFileSync(save, "utf8"));
    file.history.nodes[1].delta = { x: 1 };
    writeFileSync(save, JSON.stringify(file));
    const resumed = await playWith([EXAMPLE, "--load", save], ["/branches", "/quit"]);
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(
      resumed.out,
      /The save's history could not be read \(history\.nodes\.1\.delta: a patch holds s, a or o\); the game goes on from the saved turn as one branch\./,
    );
    assert.match(
      after(resumed.out, "/branches"),
      /\* {2}1 {2}the loaded game {2}\(from the start, to turn 1\)/,
    );
  });

  test("a cassette with retries, rewinds and branch switches replays to the same save, tree and all", async () => {
    const dir = scratchDir();
    const cassette = join(dir.dir, "game.cassette.jsonl");
    const recordedSave = join(dir.dir, "recorded.json");
    const replayedSave = join(dir.dir, "replayed.json");
    const recorded = await playWith(
      [EXAMPLE, ...isobel, "--seed", "5", "--record", cassette, "--save", recordedSave],
      [
        ...WALK,
        "/retry",
        "/rewind 1",
        "look around",
        "/alter Quiet.",
        "/branch 1",
        "/branch name 2 quiet",
        "/quit",
      ],
    );
    assert.equal(recorded.code, 0, recorded.err);
    const replayed = await playWith([EXAMPLE, "--replay", cassette, "--save", replayedSave], []);
    assert.equal(replayed.code, 0, replayed.err);
    assert.equal(readFileSync(replayedSave, "utf8"), readFileSync(recordedSave, "utf8"));
    assert.equal(JSON.parse(readFileSync(recordedSave, "utf8")).history.nodes.length, 7);
    // A play-test follows one line of play: the retry, rewind and alteration are followed, the switch is not.
    const captured = captureIo();
    const code = await run(
      ["export-test", cassette, "--world", EXAMPLE, "-o", join(dir.dir, "t.test.yaml")],
      captured.io,
    );
    assert.notEqual(code, 0);
    assert.match(
      captured.stderr() + captured.stdout(),
      /switches to another branch or deletes one at input 9 \(\/branch\).*Export the game's save instead/,
    );
  });

  test("control characters in a branch name or an altered narration never reach the terminal", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel],
      [
        "walk to the Gutted Eel",
        "n",
        "/alter Red \u001b[31mtext\u0007 here",
        "/branch name 1 Bad\u001b]0;title\u0007 name",
        "/branches",
        "/quit",
      ],
    );
    assert.equal(code, 0, err);
    // What the game prints back (the typed line's echo is the terminal's own, lines.ts).
    const list = after(out, "/branches");
    assert.doesNotMatch(list, /\u001b|\u0007/);
    assert.match(list, /1 {2}Bad name {2}\(from the start, to turn 1\)/);
    assert.doesNotMatch(out.slice(out.indexOf("here\n")), /\u001b|\u0007/);
  });

  test("wrong uses of the controls say what to do", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel],
      ["/retry", "/rewind", "/rewind 9", "/branch 7", "/diff 1", "/diff 0 5", "/branch delete 1", "/quit"],
    );
    assert.equal(code, 0, err);
    assert.match(
      after(out, "/retry"),
      /There is no turn to retry: the last step is the opening\. Play a turn first\./,
    );
    assert.match(
      after(out, "/rewind"),
      /Name a turn: \/rewind 3 \(this game is at the start of the game; 0 is the start\)\./,
    );
    assert.match(after(out, "/rewind 9"), /Turn 9 is not on this branch: it goes from turn 0 to turn 0\./);
    assert.match(after(out, "/branch 7"), /There is no branch 7: there is one\./);
    assert.match(after(out, "/diff 1"), /Name two points/);
    assert.match(after(out, "/diff 0 5"), /Turn 5 is not on this branch/);
    assert.match(after(out, "/branch delete 1"), /The first story cannot be deleted\./);
  });
});
