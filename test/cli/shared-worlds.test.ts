import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { loadWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { SHARED_WORLDS, sharedWorldFiles, sharedWorldsAbsent } from "../helpers/author.ts";
import { captureIo, playWith, scratchDir } from "./helpers.ts";

/**
 * `play`, `test` and `explain` on every real world file of shared/worlds and
 * its mod fragments (lint, graph and map have their own): each either works
 * or refuses in one clear line, and none crashes. Hedoria's quests with no
 * init trigger are warnings (the platform plays such worlds); a mod fragment
 * is refused.
 */
const files = sharedWorldFiles();
const isMod = (file: string) => file.includes(`${join("worlds", "mods")}`);
const noCrash = (text: string) => {
  assert.doesNotMatch(text, /internal error|Taleforge bug|\n\s+at .*\(/, "no crash, no stack trace");
};

describe("the shared worlds", {
  skip: files.length === 0 ? "../shared/worlds is not beside the repository" : false,
}, () => {
  for (const file of files) {
    const name = basename(file);
    test(`play, test and explain: ${name}`, async () => {
      const dir = scratchDir();
      const save = join(dir.dir, "game.json");
      const played = await playWith(
        [file, "--save", save],
        [
          "look around",
          "/quests",
          "/party",
          "/inventory",
          "/map",
          "/storage",
          "walk north",
          "/trace",
          "/quit",
        ],
      );
      noCrash(played.out + played.err);
      if (isMod(file)) {
        assert.equal(played.code, 1, played.err);
        assert.match(played.err, /world\/mod-fragment/);
        const playtest = dir.write(
          "mod.test.yaml",
          `world: ${JSON.stringify(file)}\nturns:\n  - act: look\n`,
        );
        const tested = captureIo();
        assert.equal(await run(["test", playtest], tested.io), 1);
        noCrash(tested.stdout() + tested.stderr());
        assert.match(tested.stdout(), /mod fragment/);
        const explained = captureIo();
        assert.equal(await run(["explain", file, "--save", playtest, "--act", "look"], explained.io), 1);
        noCrash(explained.stderr());
        assert.match(explained.stderr(), /^taleforge[^\n]*mod fragment[^\n]*\n$/);
        return;
      }
      assert.equal(played.code, 0, played.err);
      assert.match(played.out, /> \/trace\nTurn 2/);
      assert.equal(JSON.parse(readFileSync(save, "utf8")).state.tick, 2);

      // A play-test of this world: it runs (a world whose errors all come from rules too, as play runs it,
      // with its errors as a heading), and its expectation is checked; --strict fails a world with errors.
      const playtest = dir.write(
        "world.test.yaml",
        `world: ${JSON.stringify(file)}\nturns:\n  - act: look around\n    expect:\n      notFired: []\n`,
      );
      const tested = captureIo();
      const code = await run(["test", playtest], tested.io);
      noCrash(tested.stdout() + tested.stderr());
      assert.equal(code, 0, tested.stdout() + tested.stderr());
      assert.match(tested.stdout(), /1 passed, 0 failed/);
      // Quests without an init trigger are errors again (spec 1.7, issue 35): a world that has them
      // plays, says so, and fails --strict; one without errors passes both.
      const ruleErrors = /all from rules/.test(tested.stdout());
      assert.equal(ruleErrors, validateWorld(await loadWorld(file)).errorCount > 0, tested.stdout());
      const strict = captureIo();
      assert.equal(
        await run(["test", playtest, "--strict"], strict.io),
        ruleErrors ? 1 : 0,
        strict.stdout() + strict.stderr(),
      );

      // A dry run on the saved game.
      const explained = captureIo();
      const exit = await run(["explain", file, "--save", save, "--act", "look around"], explained.io);
      noCrash(explained.stdout() + explained.stderr());
      assert.equal(exit, 0, explained.stderr());
      assert.match(explained.stdout(), /^Dry run of turn 3/);
      assert.equal(JSON.parse(readFileSync(save, "utf8")).state.tick, 2, "the save is not written");
    });
  }

  test("Hedoria, whose quests have no init trigger (errors), still plays, saying so", {
    skip: sharedWorldsAbsent(),
  }, async () => {
    const hedoria = files.find((f) => f.includes("hedoria"));
    assert.ok(hedoria, `no Hedoria world in ${SHARED_WORLDS} (renamed?): this test needs it`);
    const played = await playWith([hedoria, "--player", "Kit"], ["/quit"]);
    assert.equal(played.code, 0);
    assert.match(played.err, /quest\/no-init-trigger[^\n]*playing anyway/);
  });
});
