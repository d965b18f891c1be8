import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type AiFactory, countResults, type RunResult, runPlaytests } from "../../src/author/playtest/run.ts";
import { WorldCache } from "../../src/author/playtest/worlds.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { scratchDir } from "../cli/helpers.ts";
import { DataAi, DataRunner } from "../engine/helpers.ts";

/**
 * The runner, with a tiny in-test AI (travel to whatever the action names
 * after "to ", echo the action as the story, a judge that says yes) and the
 * real sandbox: outcomes, positions, the order of failures, what stops a
 * test, broken worlds, `given`, coverage.
 */
const HARBOR = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));
const scratch = scratchDir();
const sandbox = createSandbox();
after(async () => {
  await sandbox.close();
});

const tinyAi: AiFactory = () =>
  new DataAi({
    intent: (r) => {
      const to = /\bto (.+)$/.exec(r.text)?.[1];
      return to ? { intent: "travel", target: to } : { intent: "other" };
    },
    story: (r) => `You ${r.actions[0]?.text ?? "wait"}.`,
    judge: () => true,
  });

let counter = 0;
async function run(text: string, name = `t${++counter}.test.yaml`): Promise<RunResult> {
  const file = scratch.write(name, text);
  return runPlaytests([file], { ai: tinyAi, scripts: sandbox, cwd: scratch.dir });
}

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const header = [`world: ${JSON.stringify(HARBOR)}`, "players: [{ premade: Isobel Carrow }]"];

describe("running a play-test", () => {
  test("a passing test: every step runs, no failure", async () => {
    const result = await run(
      yaml(
        ...header,
        "turns:",
        "  - act: walk to the Gutted Eel",
        "    expect:",
        "      fired: [keeper_rumour]",
        '      quests: { "The Keeper\'s Debt": available }',
        "  - act: talk to Mara Venn",
        "    expect: { fired: [meet_mara], known: { Mara Venn: true }, storage: { met_mara: true } }",
      ),
      "pass.test.yaml",
    );
    const [file] = result.files;
    assert.equal(file!.file, "pass.test.yaml", "relative to the working folder");
    assert.deepEqual(file!.problems, []);
    assert.equal(file!.tests.length, 1);
    const t = file!.tests[0]!;
    assert.deepEqual([t.name, t.passed, t.steps, t.ran, t.failures], ["pass", true, 2, 2, []]);
    assert.deepEqual(countResults(result), { passed: 1, failed: 0 });
  });

  test("a failed expectation does not stop the test: every failure is reported, in file order, with its position", async () => {
    const result = await run(
      yaml(
        ...header,
        "turns:",
        "  - act: walk to the Gutted Eel",
        "    expect:",
        "      storage: { met_mara: true }",
        "      fired: [meet_mara]",
        "  - act: talk to Mara Venn",
        "    expect: { fired: [meet_mara] }",
        "  - act: talk to Mara Venn",
        "    expect: { fired: [meet_mara] }",
      ),
    );
    const t = result.files[0]!.tests[0]!;
    assert.equal(t.passed, false);
    assert.equal(t.ran, 3);
    assert.deepEqual(
      t.failures.map((f) => [f.step, f.line, f.column]),
      [
        [1, 6, 18],
        [1, 7, 15],
        [3, 11, 23],
      ],
    );
    assert.match(t.failures[0]!.message, /^step 1: storage\.met_mara: expected true, got nothing/);
    assert.match(
      t.failures[2]!.message,
      /^step 3: expected "meet_mara" to fire; it did not \(it already fired on turn 2/,
    );
  });

  test("a step the engine refuses ends the test there, at the offending key", async () => {
    const result = await run(
      yaml(
        ...header,
        "turns:",
        "  - act: wait",
        "    judge: { read_logbok: true }",
        "  - act: wait",
        "  - act: wait",
      ),
    );
    const t = result.files[0]!.tests[0]!;
    assert.deepEqual([t.passed, t.ran, t.steps], [false, 0, 3]);
    assert.equal(t.failures.length, 1);
    assert.deepEqual([t.failures[0]!.line, t.failures[0]!.column], [5, 14]);
    assert.match(
      t.failures[0]!.message,
      /^step 1: pins\.judge names "read_logbok", which is not a trigger of this session\. Did you mean "read_logbook"\? \(turn\/invalid\) The test stops here; 2 later steps did not run\.$/,
    );
  });

  test("an answer the engine refuses (a quest that is not available) is a failure at that step", async () => {
    const result = await run(yaml(...header, "turns:", "  - accept: The Tongueless Bell", "  - act: wait"));
    const f = result.files[0]!.tests[0]!.failures[0]!;
    assert.deepEqual([f.line, f.column], [4, 5]);
    assert.match(f.message, /\(quest\/not-available\) The test stops here; 1 later step did not run\.$/);
  });

  test("a session that cannot start fails at the players", async () => {
    const result = await run(
      yaml(
        `world: ${JSON.stringify(HARBOR)}`,
        "players: [{ name: Aria, traits: [Noble, Dockborn] }]",
        "turns: [{ act: wait }]",
      ),
    );
    const f = result.files[0]!.tests[0]!.failures[0]!;
    assert.equal(f.step, null);
    assert.equal(f.line, 2);
    assert.match(
      f.message,
      /The session could not start: .*at most 1 trait\(s\) of category "Birth".*\(player\/too-many-traits\)/,
    );
  });

  test("`given` sets storage and resources after the opening", async () => {
    const result = await run(
      yaml(
        ...header,
        "given:",
        "  storage: { beacon_lit: true, good_deeds: 5 }",
        "  players: { Isobel Carrow: { resources: { health: 3, resolve: 99 } } }",
        "turns:",
        "  - expect:",
        "      storage: { beacon_lit: true, good_deeds: 5 }",
        "      players: { Isobel Carrow: { resources: { health: 3, resolve: 10 } } }",
        "  - act: wait",
        "    expect: { fired: [dawn_after_storm, fog_warning] }",
      ),
    );
    assert.deepEqual(result.files[0]!.tests[0]!.failures, []);
  });

  test("several players acting in one turn (`acts`), and a player-scope trigger", async () => {
    const result = await run(
      yaml(
        `world: ${JSON.stringify(HARBOR)}`,
        "players: [{ name: Aria, traits: [Noble] }, { name: Bram }]",
        "turns:",
        "  - acts: [{ player: Bram, act: walk to Counting House }, { player: Aria, act: follow Bram }]",
        "    expect: { fired: [noble_audience], party: { location: Counting House } }",
      ),
    );
    assert.deepEqual(result.files[0]!.tests[0]!.failures, []);
  });

  test("a trigger a script of the world may add can be named before it is added; a name nothing can produce is an error", async () => {
    const result = await run(
      yaml(
        ...header,
        "given: { storage: { beacon_lit: true } }",
        "turns:",
        "  - expect: { notFired: [lighthouse_haven] }",
        "  - act: wait",
        "    expect: { fired: [dawn_after_storm], notFired: [lighthouse_haven, lighthouse_heaven] }",
      ),
    );
    const failures = result.files[0]!.tests[0]!.failures;
    assert.deepEqual(
      failures.map((f) => [f.step, f.message.replace(/^step \d: /, "")]),
      [
        [
          2,
          'No trigger "lighthouse_heaven" in the world, no script has added one so far, and no script of the world names it as a key of `triggers`. Did you mean "lighthouse_haven"?',
        ],
      ],
    );
  });
});

describe("files that cannot run", () => {
  test("names the world does not define: problems of the file, before anything runs", async () => {
    const result = await run(
      yaml(
        ...header,
        "turns:",
        "  - act: wait",
        "    player: Isobel",
        "    expect:",
        "      quests: { The Keepers Debt: available }",
        "      party: { location: Old Lighthose }",
        "      players: { Isobel Carrow: { items: { Rope: 1 } } }",
      ),
    );
    const file = result.files[0]!;
    assert.deepEqual(file.tests, []);
    assert.deepEqual(
      file.problems.map((p) => [p.code, p.line, p.column]),
      [
        ["playtest/unknown-name", 5, 13],
        ["playtest/unknown-name", 7, 17],
        ["playtest/unknown-name", 8, 26],
        ["playtest/unknown-name", 9, 44],
      ],
    );
    assert.match(
      file.problems[0]!.message,
      /No player "Isobel" in this play-test's party\. Did you mean "Isobel Carrow"\?/,
    );
    assert.match(
      file.problems[1]!.message,
      /No quest "The Keepers Debt" in the world\. Did you mean "The Keeper's Debt"\?/,
    );
    assert.match(file.problems[2]!.message, /Did you mean "Old Lighthouse"\?/);
    assert.deepEqual(countResults(result), { passed: 0, failed: 1 });
  });

  test("a missing world fails every test of the file at `world:`", async () => {
    const result = await run(
      yaml("world: ../no-such.world.json", "tests:", "  - turns: [{ act: a }]", "  - turns: [{ act: b }]"),
    );
    const tests = result.files[0]!.tests;
    assert.equal(tests.length, 2);
    for (const t of tests) {
      assert.equal(t.passed, false);
      assert.deepEqual([t.failures[0]!.line, t.failures[0]!.column], [1, 8]);
      assert.match(
        t.failures[0]!.message,
        /Cannot read the world file .*no-such\.world\.json.*`world:` is relative to the play-test file/,
      );
    }
  });

  test("a world with errors fails its tests with the errors summarised and where to see them all", async () => {
    const broken = scratch.write("broken.world.json", '{ "configVersion": "V33", "heroesVersion": 33 }');
    const result = await run(yaml(`world: ${JSON.stringify(broken)}`, "turns: [{ act: a }]"));
    const f = result.files[0]!.tests[0]!.failures[0]!;
    assert.match(
      f.message,
      /^The world .*broken\.world\.json has \d+ errors, so its play-tests cannot run: .*shape\/missing-field.*; and \d+ more\. Run `taleforge check .*broken\.world\.json` to see them all\.$/,
    );
  });

  test("a world that is a device, not a file, is refused rather than read forever", async () => {
    const result = await run(yaml("world: /dev/zero", "turns: [{ act: a }]"));
    assert.match(result.files[0]!.tests[0]!.failures[0]!.message, /is not a regular file/);
  });

  test("an unreadable path is a problem of that file", async () => {
    const result = await runPlaytests([join(scratch.dir, "missing.test.yaml")], {
      ai: tinyAi,
      scripts: sandbox,
      cwd: scratch.dir,
    });
    assert.equal(result.files[0]!.problems[0]!.code, "playtest/unreadable");
  });
});

describe("worlds and scripts are shared", () => {
  test("a world is loaded and checked once per path", async () => {
    const cache = new WorldCache();
    const first = cache.get(HARBOR, "harbor");
    assert.equal(cache.get(HARBOR, "harbor"), first);
    assert.equal((await first).ok, true);
  });

  test("the given script runner runs every test's scripts", async () => {
    const runner = new DataRunner({});
    const file = scratch.write(
      "scripts.test.yaml",
      yaml(...header, "turns: [{ act: walk to Old Lighthouse }]"),
    );
    await runPlaytests([file], { ai: tinyAi, scripts: runner, cwd: scratch.dir });
    assert.ok(runner.calls.some((c) => c.trigger === "count_lighthouse_visits"));
  });
});

describe("coverage across play-tests", () => {
  test("triggers fired (counted per turn), effects applied, quest statuses reached", async () => {
    const a = scratch.write(
      "cov-a.test.yaml",
      yaml(
        ...header,
        "turns:",
        "  - act: walk to the Gutted Eel",
        "  - accept: The Keeper's Debt",
        "  - act: talk to Mara Venn",
      ),
    );
    const b = scratch.write("cov-b.test.yaml", yaml(...header, "turns:", "  - act: walk to the Gutted Eel"));
    const result = await runPlaytests([a, b], { ai: tinyAi, scripts: sandbox, cwd: scratch.dir });
    assert.equal(result.coverage.length, 1, "one world");
    const cov = result.coverage[0]!;
    const fired = (key: string) => cov.triggers.find((t) => t.trigger === key)!.fired;
    assert.equal(fired("keeper_rumour"), 2);
    assert.equal(fired("meet_mara"), 1);
    assert.equal(fired("light_the_beacon"), 0);
    assert.equal(cov.triggers.length, 37, "35 world triggers and 2 engine-made objective triggers");
    assert.equal(cov.triggers.find((t) => t.trigger === "Names on the Cairn_objective")!.origin, "engine");
    const applied = (owner: string, index: number) =>
      cov.effects.find((e) => e.owner === owner && e.index === index)!.applied;
    assert.equal(applied("keeper_rumour", 0), 2);
    assert.equal(applied("meet_mara", 3), 1);
    assert.equal(applied("narrativeEvents/Storm Night", 0), 0);
    assert.deepEqual(cov.quests.find((q) => q.quest === "The Keeper's Debt")!.reached, [
      "hidden",
      "available",
      "accepted",
    ]);
  });
});
