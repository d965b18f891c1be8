import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { run } from "../../src/cli/main.ts";
import { harbor, type Json } from "../helpers/author.ts";
import { captureIo, playWith, ROOT, scratchDir } from "./helpers.ts";

/** `taleforge export-test`: a game played in the terminal becomes a play-test that passes, in one step. */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const dir = scratchDir();
const inputs = [
  "walk to the Gutted Eel",
  "y",
  "talk to Mara Venn",
  "/undo",
  "talk to Mara Venn",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "/quit",
];

async function taleforge(args: string[]) {
  const captured = captureIo();
  captured.io.cwd = dir.dir;
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("taleforge export-test", () => {
  const cassette = join(dir.dir, "game.cassette.jsonl");
  const save = join(dir.dir, "game.save.json");

  test("a recorded game, exported with -o, passes `taleforge test`", async () => {
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "3", "--record", cassette, "--save", save],
      inputs,
    );
    assert.equal(played.code, 0, played.err);
    const out = await taleforge(["export-test", cassette, "--world", EXAMPLE, "-o", "bug.test.yaml"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Wrote bug\.test\.yaml: 4 turns\.\nRun it: taleforge test bug\.test\.yaml/);
    const file = parse(readFileSync(join(dir.dir, "bug.test.yaml"), "utf8")) as Json;
    assert.equal(file.world, relative(dir.dir, EXAMPLE), "the world, relative to the play-test");
    assert.deepEqual(file.players, [{ premade: "Isobel Carrow" }]);
    assert.equal(file.seed, 3);
    const ran = await taleforge(["test", "bug.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
    assert.match(ran.stdout, /1 passed, 0 failed/);
  });

  test("the world defaults to the example world; without -o the play-test goes to stdout", async () => {
    const out = await taleforge(["export-test", cassette, "--loose"]);
    assert.equal(out.code, 0, out.stderr);
    const file = parse(out.stdout) as { turns: { expect?: unknown }[] };
    assert.equal(file.turns.filter((t) => t.expect !== undefined).length, 1);
  });

  test("an existing output is not overwritten without --force", async () => {
    writeFileSync(join(dir.dir, "keep.test.yaml"), "keep");
    const refused = await taleforge(["export-test", cassette, "-o", "keep.test.yaml"]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /already exists.*--force/);
    assert.equal(readFileSync(join(dir.dir, "keep.test.yaml"), "utf8"), "keep");
    const forced = await taleforge([
      "export-test",
      cassette,
      "-o",
      "keep.test.yaml",
      "--force",
      "--to-turn",
      "2",
    ]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /2 turns/);
  });

  test("a save exports too: its actions and story, replayed offline to where it ended", async () => {
    const out = await taleforge(["export-test", save, "--world", EXAMPLE, "-o", "from-save.test.yaml"]);
    assert.equal(out.code, 0, out.stderr);
    const ran = await taleforge(["test", "from-save.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
  });

  test("a save with branches exports its current branch only: the path from the opening to where it is", async () => {
    const branched = join(dir.dir, "branched.save.json");
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "5", "--save", branched],
      [
        "walk to the Gutted Eel",
        "talk to Mara Venn",
        "travel to the Old Lighthouse",
        "/rewind 1",
        "look around",
        "/retry",
        "/branches",
        "/quit",
      ],
    );
    assert.equal(played.code, 0, played.err);
    assert.match(played.out, /branch/i);
    const out = await taleforge(["export-test", branched, "--world", EXAMPLE, "-o", "branched.test.yaml"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Wrote branched\.test\.yaml: 2 turns/);
    const file = parse(readFileSync(join(dir.dir, "branched.test.yaml"), "utf8")) as {
      turns: { act?: string; story?: string }[];
    };
    // Nothing of the branch the rewind left (talk to Mara Venn, travel to the Old Lighthouse).
    assert.deepEqual(
      file.turns.map((t) => t.act),
      ["walk to the Gutted Eel", "look around"],
    );
    const ran = await taleforge(["test", "branched.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
    assert.match(ran.stdout, /1 passed, 0 failed/);
  });

  test("a cassette with a retry, an alteration and a rewind exports its current branch, and passes", async () => {
    const controlled = join(dir.dir, "controls.cassette.jsonl");
    const first = "The Gutted Eel is empty but for a grey cat.";
    const altered = "Mara Venn says nothing at all; she only points at the lighthouse.";
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "5", "--record", controlled, "--no-save"],
      [
        "walk to the Gutted Eel",
        "y",
        // After the quest answer: the narration of turn 1 is altered, in the answer's state too.
        `/alter ${first}`,
        "look around",
        "/rewind 1",
        "talk to Mara Venn",
        "/retry",
        "/retry",
        `/alter ${altered}`,
        "travel to the Old Lighthouse",
        "/quit",
      ],
    );
    assert.equal(played.code, 0, played.err);
    const out = await taleforge(["export-test", controlled, "--world", EXAMPLE, "-o", "controls.test.yaml"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Wrote controls\.test\.yaml: 3 turns/);
    const file = parse(readFileSync(join(dir.dir, "controls.test.yaml"), "utf8")) as {
      turns: { act?: string; accept?: string; story?: string }[];
    };
    // The rewound turn is gone; the retried turn is there once, with its altered narration.
    assert.deepEqual(
      file.turns.map((t) => t.act ?? `accept ${t.accept}`),
      [
        "walk to the Gutted Eel",
        "accept The Keeper's Debt",
        "talk to Mara Venn",
        "travel to the Old Lighthouse",
      ],
    );
    assert.equal(file.turns[0]!.story, first);
    assert.equal(file.turns[2]!.story, altered);
    const ran = await taleforge(["test", "controls.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
    assert.match(ran.stdout, /1 passed, 0 failed/);
  });

  test("a cassette that switches branches is refused at that input, saying what to export instead", async () => {
    const switched = join(dir.dir, "switched.cassette.jsonl");
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "5", "--record", switched, "--no-save"],
      ["walk to the Gutted Eel", "n", "look around", "/retry", "/branch 1", "/quit"],
    );
    assert.equal(played.code, 0, played.err);
    const out = await taleforge(["export-test", switched, "--world", EXAMPLE]);
    assert.equal(out.code, 1);
    assert.match(
      out.stderr,
      /switches to another branch or deletes one at input 5 .*save instead.*\(playtest\/export\)\n$/,
    );
  });

  test("a game of another world is refused with exit 1 and a coded message", async () => {
    const world = harbor() as Json;
    world.storySettings.worldBackground += " Changed.";
    const changed = dir.write("changed.world.json", JSON.stringify(world));
    const out = await taleforge(["export-test", cassette, "--world", changed]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /another world.*\(playtest\/export\)\n$/);
    assert.equal(out.stdout, "");
  });

  for (const [label, args, pattern] of [
    ["a missing file", ["nothing.jsonl"], /no file nothing\.jsonl/],
    ["a bad turn number", [cassette, "--from-turn", "x"], /--from-turn must be a turn number/],
    ["a zero turn", [cassette, "--to-turn", "0"], /--to-turn must be a turn number/],
  ] as const) {
    test(`usage errors exit 2 on one line: ${label}`, async () => {
      const out = await taleforge(["export-test", ...args]);
      assert.equal(out.code, 2);
      assert.match(out.stderr, pattern);
      assert.equal(out.stderr.trim().split("\n").length, 1);
    });
  }

  test("a file that is neither a save nor a cassette exits 1 and says what it is not", async () => {
    const junk = dir.write("junk.json", "{}");
    const out = await taleforge(["export-test", junk]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /cannot be exported/);
  });
});

describe("/export-test in the terminal's play", () => {
  test("writes the game so far as a play-test that passes; an undone turn is not in it", async () => {
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "5", "--no-save"],
      [
        "walk to the Gutted Eel",
        "y",
        "talk to Mara Venn",
        "look around",
        "/undo",
        "/export-test played.test.yaml",
        "/quit",
      ],
      { cwd: dir.dir },
    );
    assert.equal(played.code, 0, played.err);
    assert.match(
      played.out,
      /Wrote played\.test\.yaml: a play-test of 2 turns\. Run it: taleforge test played\.test\.yaml/,
    );
    const file = parse(readFileSync(join(dir.dir, "played.test.yaml"), "utf8")) as {
      turns: { act?: string }[];
    };
    assert.ok(!file.turns.some((t) => t.act === "look around"));
    const ran = await taleforge(["test", "played.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
  });

  test("a retry, an alteration and a rewind are followed: the play-test is the current branch, and passes", async () => {
    const altered = "Mara Venn only points at the lighthouse, and says nothing.";
    const played = await playWith(
      [EXAMPLE, "--premade", "Isobel Carrow", "--seed", "5", "--no-save"],
      [
        "walk to the Gutted Eel",
        "y",
        "look around",
        "/rewind 1",
        "talk to Mara Venn",
        "/retry",
        `/alter ${altered}`,
        "travel to the Old Lighthouse",
        "/export-test controls-live.test.yaml",
        "/quit",
      ],
      { cwd: dir.dir },
    );
    assert.equal(played.code, 0, played.err);
    assert.match(played.out, /Wrote controls-live\.test\.yaml: a play-test of 3 turns/);
    const file = parse(readFileSync(join(dir.dir, "controls-live.test.yaml"), "utf8")) as {
      turns: { act?: string; accept?: string; story?: string }[];
    };
    assert.deepEqual(
      file.turns.map((t) => t.act ?? `accept ${t.accept}`),
      [
        "walk to the Gutted Eel",
        "accept The Keeper's Debt",
        "talk to Mara Venn",
        "travel to the Old Lighthouse",
      ],
    );
    assert.equal(file.turns[2]!.story, altered);
    const ran = await taleforge(["test", "controls-live.test.yaml"]);
    assert.equal(ran.code, 0, ran.stdout);
  });

  test("a resumed game cannot be exported, and says why", async () => {
    const played = await playWith(
      [EXAMPLE, "--load", join(dir.dir, "game.save.json"), "--no-save"],
      ["/export-test x.test.yaml", "/quit"],
      { cwd: dir.dir },
    );
    assert.equal(played.code, 0, played.err);
    assert.match(played.out, /Cannot export this game: .*starts from a saved game/);
  });
});
