import assert from "node:assert/strict";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { PLAY_COMMANDS } from "../../src/cli/play/commands.ts";
import { captureIo, playAtTerminal, playWith, ROOT, scratchDir } from "./helpers.ts";

/**
 * Issue 33's "done when" at the terminal, as a player would do it: ten turns of
 * the example world at an 80-column terminal, /retry of the last one, /rewind 4,
 * a different choice, /branches, /diff between the branches; the save resumed
 * with --load; the cassette replayed to the same save, byte for byte.
 */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const TEN_TURNS = [
  "walk to the Gutted Eel",
  "y",
  "talk to Mara Venn",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "go up to the Lamp Room",
  "read the keeper's logbook",
  "travel to the Counting House",
  "confront Corvin Slade about the keeper's debt",
  "travel to the Old Lighthouse",
  "climb the stairwell",
];

/** What the game printed after the prompt line that typed `command`, up to the next prompt. */
function after(out: string, command: string, from = 0): string {
  const at = out.indexOf(`> ${command}\n`, from);
  assert.ok(at >= 0, `typed: ${command}`);
  const rest = out.slice(at + command.length + 3);
  const next = rest.indexOf("\n> ");
  return next === -1 ? rest : rest.slice(0, next);
}

describe("taleforge play: ten turns, retry, rewind, a branch, a diff, a save and a replay", () => {
  test("at 80 columns, the controls say where the game is; the save and the cassette carry the tree", async () => {
    const dir = scratchDir();
    const cassette = join(dir.dir, "game.cassette.jsonl");
    const save = join(dir.dir, "game.json");
    const played = await playAtTerminal(
      [EXAMPLE, "--premade", "Isobel Carrow", "--record", cassette, "--save", save],
      [
        ...TEN_TURNS,
        "/retry",
        "/rewind 4",
        "travel to Saltlight Temple",
        "/branches",
        "/diff #2 #3",
        "/diff 10 5",
        "/rewind 11",
        "/quit",
      ],
    );
    assert.equal(played.code, 0, played.out);
    // At a terminal the typed lines are the terminal's echo: what the game printed is read in order.
    const out = played.out.replace(/\r/g, "");
    for (const line of out.split("\n")) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
    assert.match(out, /offline narrator, recorded to game\.cassette\.jsonl/);
    // The tenth turn is on the stairwell; the retry is its second draw, and the rewind follows it.
    assert.match(
      out,
      /Draw 2 of this turn; the earlier one is kept as a branch \(\/branches\)\.\n[\s\S]*Back at turn 4\. Your next turn starts a new branch; the story up to turn\s+10\s+stays/,
    );
    const list = out.indexOf("   1  the first story");
    assert.ok(list > 0, "/branches listed the branches");
    assert.deepEqual(out.slice(list).split("\n").slice(0, 3), [
      "   1  the first story  (from the start, to turn 10)",
      "   2  climb the stairwell (draw 2)  (from 1 after turn 9, to turn 10)",
      "*  3  travel to Saltlight Temple  (from 1 after turn 4, to turn 5)",
    ]);
    // What the other choice changed: where the party is, the quests, the storm, the triggers.
    const head = out.indexOf("From #2 (turn 10) to #3 (turn 5):\n");
    assert.ok(head > 0, "/diff #2 #3 said what it compares");
    const below = out.slice(head).split("\n").slice(1);
    const diff = below.slice(
      0,
      below.findIndex((line) => !line.startsWith("  ")),
    );
    assert.ok(
      diff.includes("  Place: Old Lighthouse (Stairwell) -> Saltlight Temple (Nave)"),
      diff.join("\n"),
    );
    assert.ok(diff.includes('  Quest "The Tongueless Bell": hidden -> available'));
    assert.ok(diff.includes('  Objective "confront_slade" of "The Keeper\'s Debt": completed -> hidden'));
    assert.ok(diff.includes('  Event "Storm Night": active -> inactive'));
    assert.ok(diff.includes('  Trigger "temple_bell_plea": not fired -> fired on turn 5'));
    assert.ok(diff.includes('  Trigger "storm_rises": fired on turn 9 -> not fired'));
    // The first party member is the same on both branches: nothing about the party.
    assert.ok(!diff.some((line) => line.startsWith("  Party:")));
    // A turn past where the game is: /diff and /rewind say it in the same words.
    assert.match(out, /^Turn 10 is not on this branch: it goes from turn 0 to turn 5\.$/m);
    assert.match(out, /^Turn 11 is not on this branch: it goes from turn 0 to turn 5\.$/m);

    // The cassette replays the whole tree to the same save, byte for byte.
    const replayedSave = join(dir.dir, "replayed.json");
    const replayed = await playWith([EXAMPLE, "--replay", cassette, "--save", replayedSave], []);
    assert.equal(replayed.code, 0, replayed.err);
    assert.match(replayed.out, /> \/retry\n[\s\S]*> \/rewind 4\n[\s\S]*Replay finished at turn 5\./);
    assert.equal(readFileSync(replayedSave, "utf8"), readFileSync(save, "utf8"));
    const tree = JSON.parse(readFileSync(save, "utf8")).history;
    assert.equal(tree.nodes.filter((n: { tick: number }) => n.tick === 10).length, 2);

    // --load resumes the branch the game was on, and play goes on along it (no new branch).
    const resumedFile = join(dir.dir, "resumed.json");
    copyFileSync(save, resumedFile);
    const resumed = await playWith(
      [EXAMPLE, "--load", resumedFile],
      ["/branches", "travel to Blackwrack Cove", "/branches", "/branch 1", "/quit"],
    );
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.out, /Resumed at turn 5, at the Nave of the Saltlight Temple, Brinewick\./);
    assert.match(
      resumed.out,
      /The story has 3 branches; you are on branch 3 \(travel to Saltlight Temple\)\./,
    );
    assert.match(
      after(resumed.out, "/branches"),
      /^\* {2}3 {2}travel to Saltlight Temple {2}\(from 1 after turn 4, to turn 5\)$/m,
    );
    const grown = after(resumed.out, "/branches", resumed.out.indexOf("> travel to Blackwrack Cove"));
    assert.match(grown, /^\* {2}3 {2}travel to Saltlight Temple {2}\(from 1 after turn 4, to turn 6\)$/m);
    assert.doesNotMatch(grown, /^.{3}4 /m);
    assert.match(after(resumed.out, "/branch 1"), /On branch 1 \(the first story\), at turn 10\./);
  });

  test("after an undo the branch goes on past the game: /alter says so; a name given and taken back; titles cut at a word", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow"],
      [
        "walk to the Gutted Eel",
        "n",
        "travel to the Old Lighthouse and look for the keeper",
        "/rewind 1",
        "look around",
        "/undo",
        "/alter The Eel is empty.",
        "/branch name 1 eel",
        "/branch name 1",
        "/branches",
        "/quit",
      ],
    );
    assert.equal(code, 0, err);
    assert.match(
      after(out, "/alter The Eel is empty."),
      /Turn 1 has later turns in the story \(on this branch or another\): only the last turn of a branch can be altered\./,
    );
    assert.match(after(out, "/branch name 1 eel"), /Branch 1 is named "eel"\./);
    assert.match(
      after(out, "/branch name 1"),
      /Branch 1 has no name now; it is listed as "the first story"\./,
    );
    const list = after(out, "/branches");
    assert.match(list, /^\* {2}1 {2}the first story {2}\(from the start, to turn 2; you are at turn 1\)$/m);
    assert.doesNotMatch(list, /look around/, "the undone turn is dropped");
  });

  test("branches that read alike say where they part: the turn and its action, or that they are copies", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow"],
      [
        "walk to the Gutted Eel",
        "n",
        "look around",
        "talk to Mara Venn",
        // Rewound to turn 1 three times, the same action typed again each time.
        "/rewind 1",
        "look around",
        "travel to the Old Lighthouse",
        "/rewind 1",
        "look around",
        "wait at the bar of the Gutted Eel for a long while, then go to the Old Lighthouse",
        "/rewind 1",
        "look around",
        "wait at the bar of the Gutted Eel for a long while, then go to the Counting House",
        "/rewind 1",
        "look around",
        "travel to the Old Lighthouse",
        "/branches",
        "/quit",
      ],
    );
    assert.equal(code, 0, err);
    const list = after(out, "/branches").split("\n");
    // The lines of the branches (the help below them is wrapped by a terminal, not here).
    for (const line of list.slice(0, 9)) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
    assert.deepEqual(list.slice(0, 10), [
      "   1  the first story  (from the start, to turn 3)",
      "   2  look around  (from 1 after turn 1, to turn 3)",
      "      the same story as another branch (1 of 2)",
      "   3  look around  (from 1 after turn 1, to turn 3)",
      '      parts at turn 3: typed "…go to the Old Lighthouse"',
      "   4  look around  (from 1 after turn 1, to turn 3)",
      '      parts at turn 3: typed "…go to the Counting House"',
      "*  5  look around  (from 1 after turn 1, to turn 3)",
      "      the same story as another branch (2 of 2)",
      "",
    ]);
  });

  test("play --help names every command of the game", async () => {
    const help = captureIo();
    assert.equal(await run(["play", "--help"], help.io), 0);
    for (const command of PLAY_COMMANDS.filter((c) => c.usage !== undefined))
      assert.match(help.stdout(), new RegExp(` /${command.name}(?= |\\n)`), command.name);
  });
});
