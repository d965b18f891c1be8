import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { explain } from "../../src/cli/explain.ts";
import { run } from "../../src/cli/main.ts";
import { createSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { harbor } from "../helpers/author.ts";
import { assertOneLine, BASE_WORLD, captureIo, FIXTURES, scratchDir } from "./helpers.ts";

/**
 * `taleforge explain`: a dry run of one turn on a save produced by playing
 * the example world (offline provider, real sandbox), and every way the
 * inputs can be wrong.
 */
const HARBOR = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));
const scratch = scratchDir();
let SAVE: string;
let saveText: string;

before(async () => {
  const world = harbor();
  const sandbox = createSandbox();
  try {
    const session = await createSession(world, {
      players: [{ premade: "Isobel Carrow" }],
      ai: createOfflineProvider(world),
      scripts: sandbox,
      seed: 7,
    });
    for (const text of [
      "walk to the Gutted Eel",
      "talk to Mara Venn",
      "travel to the Old Lighthouse",
      "climb the stairwell",
      "go up to the Lamp Room",
    ])
      await session.turn({ actions: [{ player: "Isobel Carrow", text }] });
    saveText = session.save();
    SAVE = scratch.write("game.save.json", saveText);
  } finally {
    await sandbox.close();
  }
});

async function explainWith(options: Record<string, unknown>, world = HARBOR) {
  const captured = captureIo();
  const code = await explain(
    world,
    { save: SAVE, act: "read the keeper's logbook", ...options },
    captured.io,
  );
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("explain: the dry run", () => {
  let out: { code: number; stdout: string; stderr: string };
  let mtime: number;
  before(async () => {
    mtime = statSync(SAVE).mtimeMs;
    out = await explainWith({});
  });

  test("exit 0, the story, then the full trace of the turn", () => {
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stderr, "");
    const lines = out.stdout.split("\n");
    assert.equal(lines[0], `Dry run of turn 6 from ${SAVE} (nothing is saved)`);
    assert.equal(lines[2], "Story");
    assert.ok(lines.includes("Turn 6"));
    assert.ok(lines.includes("  intent    readDocument (classifier)"));
  });

  test("every trigger of each phase, each condition with its subject, actual and expected value", () => {
    const text = out.stdout;
    assert.match(text, /\n {2}✔ read_logbook {2}fired; AI verdict: passed; 5 effects applied;/);
    assert.match(text, /\n {6}✔ \[3\] read-boolean stairwell_climbed equals true, actual true\n/);
    assert.match(
      text,
      /\n {6}✔ \[2\] action "Does the player read the keeper's logbook\?": AI verdict: yes; credited: Isobel Carrow\n/,
    );
    assert.match(
      text,
      /\n {2}[·✗] temple_bell_plea {2}failed at condition 1\n {6}✗ \[1\] party-location equals "Saltlight Temple", actual "Old Lighthouse"\n/,
    );
    assert.match(text, /\n {6}effect \[4\] known-entity applied — "Corvin Slade" is now known\n/);
  });

  test("the AI candidates, the triggers already spent, and the state diff", () => {
    const text = out.stdout;
    assert.match(text, /\n {2}AI judge: 1 candidate; sent: read_logbook; lexical ranking; judge called\n/);
    assert.match(
      text,
      /\nNot evaluated \(consumed: non-recurring triggers that already fired\)\n {2}- keeper_rumour {2}fired on turn 1\n/,
    );
    assert.match(text, /\nState diff: \d+ changes\n/);
    assert.match(text, /\n {2}storage\.knows_debt: \(absent\) → true\n/);
  });

  test("the save file is not written", () => {
    assert.equal(readFileSync(SAVE, "utf8"), saveText);
    assert.equal(statSync(SAVE).mtimeMs, mtime);
  });
});

describe("explain: pins and formats", () => {
  test("--judge pins a verdict, --intent/--target pin the classifier, --story the narration", async () => {
    const { code, stdout } = await explainWith({
      intent: "move",
      target: "Stairwell",
      judge: ["read_logbook=false"],
      story: "The logbook stays shut.",
    });
    assert.equal(code, 0);
    assert.match(stdout, /\n {2}intent {4}move → "Stairwell" \(pinned\)\n/);
    assert.match(stdout, /\n {2}· read_logbook {2}AI verdict pinned: failed\n/);
    assert.match(stdout, /\nStory\n {2}The logbook stays shut\.\n/);
    assert.match(stdout, /\n {2}movement {2}moved to Old Lighthouse \/ Stairwell/);
  });

  test("--format json prints the TurnResult", async () => {
    const { code, stdout } = await explainWith({ format: "json" });
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.equal(result.tick, 6);
    assert.deepEqual(result.fired, ["read_logbook", "count_lighthouse_visits"]);
    assert.equal(result.trace.phases.length, 2);
  });

  test("--player picks the acting player", async () => {
    const { code, stdout } = await explainWith({ player: "Isobel Carrow", format: "json" });
    assert.equal(code, 0);
    assert.equal(JSON.parse(stdout).trace.phases[0].triggers[0].targets[0], "Isobel Carrow");
  });
});

describe("explain: hostile inputs (one line on stderr, nothing on stdout)", () => {
  async function refused(options: Record<string, unknown>, code: number, message: RegExp, world = HARBOR) {
    const out = await explainWith(options, world);
    assert.equal(out.code, code, out.stderr);
    assert.equal(out.stdout, "");
    assertOneLine(out.stderr);
    assert.match(out.stderr, message);
  }

  test("options: bad --judge syntax, unknown intent, --target alone, bad format: exit 2", async () => {
    await refused(
      { judge: ["read_logbook"] },
      2,
      /bad --judge "read_logbook": write trigger=true or trigger=false/,
    );
    await refused({ judge: ["read_logbook=yes"] }, 2, /bad --judge/);
    await refused(
      { intent: "raed" },
      2,
      /unknown intent "raed"\. Did you mean "read"|unknown intent "raed"\./,
    );
    await refused({ intent: "travl" }, 2, /Did you mean "travel"\?/);
    await refused({ target: "Stairwell" }, 2, /--target pins the target of a pinned intent/);
    await refused({ format: "yaml" }, 2, /unknown format "yaml"\. Use --format text or json\./);
  });

  test("an unknown player or judge trigger: exit 2, with a did-you-mean", async () => {
    await refused(
      { player: "Isobel" },
      2,
      /no player "Isobel" in this save\. Did you mean "Isobel Carrow"\?/,
    );
    await refused(
      { judge: ["read_logbok=true"] },
      2,
      /pins\.judge names "read_logbok".*Did you mean "read_logbook"\?.*\(turn\/invalid\)/,
    );
  });

  test("missing or unreadable files: exit 2", async () => {
    await refused({}, 2, /nowhere\.world\.json/, join(scratch.dir, "nowhere.world.json"));
    await refused(
      { save: join(scratch.dir, "nowhere.save.json") },
      2,
      /cannot read the save .*nowhere\.save\.json/,
    );
    await refused({ save: scratch.dir }, 2, /cannot read the save/);
    await refused({ save: "/dev/zero" }, 2, /the save \/dev\/zero is not a regular file/);
  });

  test("a damaged save, a save of another world, a world with errors: exit 1 (the input file is the problem)", async () => {
    const damaged = scratch.write("damaged.save.json", "{ not json");
    await refused(
      { save: damaged },
      1,
      /the save .*damaged\.save\.json cannot be played: The save is not valid JSON.*\(save\/malformed\)/,
    );
    const truncated = scratch.write("truncated.save.json", saveText.slice(0, 200));
    await refused({ save: truncated }, 1, /\(save\/malformed\)/);
    const notASave = scratch.write("other.json", JSON.stringify({ hello: "world" }));
    await refused({ save: notASave }, 1, /This is not a Taleforge save/);
    await refused({}, 1, /\(save\/world-mismatch\)/, BASE_WORLD);
    await refused(
      {},
      1,
      /the world .*broken\.world\.json has 2 errors .*Run "taleforge check/,
      join(FIXTURES, "broken.world.json"),
    );
  });

  test("the registered command requires --save and --act", async () => {
    const captured = captureIo();
    assert.equal(await run(["explain", HARBOR, "--act", "wait"], captured.io), 2);
    assert.match(captured.stderr(), /--save <file>/);
  });
});
