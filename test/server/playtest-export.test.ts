import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { runPlaytests } from "../../src/author/playtest/index.ts";
import { scratchDir } from "../cli/helpers.ts";
import {
  eventually,
  joinedGame,
  type Running,
  STORE_NAME,
  startServer,
  stopServer,
  suiteServers,
  uploadWorld,
} from "./harness.ts";

const WORLD = new URL("../../examples/harbor.world.json", import.meta.url);

/** A game of the world `text` from "Dawn at the Docks" (seed 7), Isobel Carrow alone in its lobby. */
async function isobelsLobby(url: string, text: string) {
  const made = await joinedGame(url, await uploadWorld(url, text), {
    body: { seed: 7, storyStart: "Dawn at the Docks" },
    characters: [{ premade: "Isobel Carrow" }],
  });
  return { id: made.id, host: made.host, player: made.players[0]! };
}

/** GET /games/:id/playtest: a served game, as a play-test that passes, for its host only. */
describe(`server: a game exported as a play-test (${STORE_NAME})`, () => {
  const start = suiteServers();
  let running: Running | undefined;

  it("the host downloads a play-test of the game that passes; players may not", {
    timeout: 120_000,
  }, async () => {
    running = await start();
    const text = readFileSync(WORLD, "utf8");
    const game = await isobelsLobby(running.url, text);
    const { host, player } = game;
    const early = await host.get(`/games/${game.id}/playtest`);
    assert.equal(early.status, 409);
    assert.equal(early.json.error.code, "game/state");
    assert.equal((await host.post(`/games/${game.id}/start`)).status, 200);
    for (const [i, act] of [
      "walk to the Gutted Eel",
      "talk to Mara Venn",
      "travel to the Old Lighthouse",
    ].entries()) {
      assert.equal(
        (await player.post(`/games/${game.id}/actions`, { text: act, idempotencyKey: `k${i}` })).status,
        202,
      );
      await eventually(
        () => host.get(`/games/${game.id}`),
        (a) => a.json.tick === i + 1,
      );
      if (i === 0)
        assert.equal(
          (await player.post(`/games/${game.id}/quests/${encodeURIComponent("The Keeper's Debt")}/accept`))
            .status,
          200,
        );
    }
    assert.equal((await player.get(`/games/${game.id}/playtest`)).status, 403);
    const exported = await host.get(`/games/${game.id}/playtest?world=harbor.world.json`);
    assert.equal(exported.status, 200, exported.text);
    assert.match(exported.headers.get("content-disposition") ?? "", /\.test\.yaml/);
    const file = parse(exported.text) as { world: string; turns: { act?: string; accept?: string }[] };
    assert.equal(file.world, "harbor.world.json");
    assert.deepEqual(
      file.turns.map((t) => t.act ?? `accept ${t.accept}`),
      [
        "walk to the Gutted Eel",
        "accept The Keeper's Debt",
        "talk to Mara Venn",
        "travel to the Old Lighthouse",
      ],
    );
    const scratch = scratchDir();
    scratch.write("harbor.world.json", text);
    const path = scratch.write("game.test.yaml", exported.text);
    const result = await runPlaytests([path], { cwd: scratch.dir });
    assert.deepEqual(result.files[0]!.problems, []);
    assert.deepEqual(result.files[0]!.tests[0]!.failures, []);
  });

  /** A started game of the example world with Isobel Carrow alone, and a turn played by her action. */
  async function isobelsGame() {
    running ??= await start();
    const text = readFileSync(WORLD, "utf8");
    const game = await isobelsLobby(running.url, text);
    const { host, player } = game;
    assert.equal((await host.post(`/games/${game.id}/start`)).status, 200);
    const play = async (act: string, key: string) => {
      const tick = (await host.get(`/games/${game.id}`)).json.tick as number;
      assert.equal(
        (await player.post(`/games/${game.id}/actions`, { text: act, idempotencyKey: key })).status,
        202,
      );
      await eventually(
        () => host.get(`/games/${game.id}`),
        (a) => a.json.tick === tick + 1,
      );
    };
    return { text, game, host, play };
  }

  it("a game with branches exports its current branch: the path from the opening to the head", {
    timeout: 120_000,
  }, async () => {
    const { text, game, host, play } = await isobelsGame();
    await play("walk to the Gutted Eel", "r1");
    await play("talk to Mara Venn", "r2");
    await play("travel to the Old Lighthouse", "r3");
    assert.equal((await host.post(`/games/${game.id}/history/rewind`, { tick: 1 })).status, 200);
    await play("look around", "r4");
    const exported = await host.get(`/games/${game.id}/playtest?world=harbor.world.json`);
    assert.equal(exported.status, 200, exported.text);
    const file = parse(exported.text) as { turns: { act?: string }[] };
    assert.deepEqual(
      file.turns.map((t) => t.act),
      ["walk to the Gutted Eel", "look around"],
    );
    const scratch = scratchDir();
    scratch.write("harbor.world.json", text);
    const path = scratch.write("branch.test.yaml", exported.text);
    const result = await runPlaytests([path], { cwd: scratch.dir });
    assert.deepEqual(result.files[0]!.problems, []);
    assert.deepEqual(result.files[0]!.tests[0]!.failures, []);
  });

  it("a game with a retried turn and an altered narration exports the kept draw with its altered text, and passes", {
    timeout: 120_000,
  }, async () => {
    const { text, game, host, play } = await isobelsGame();
    await play("walk to the Gutted Eel", "c1");
    await play("talk to Mara Venn", "c2");
    const retried = await host.post(`/games/${game.id}/history/retry`, {});
    assert.equal(retried.status, 200, retried.text);
    const retriedAgain = await host.post(`/games/${game.id}/history/retry`, {});
    assert.equal(retriedAgain.status, 200, retriedAgain.text);
    const story = "Mara Venn only points at the lighthouse, and says nothing.";
    const altered = await host.post(`/games/${game.id}/history/alter`, { text: story });
    assert.equal(altered.status, 200, altered.text);
    await play("travel to the Old Lighthouse", "c3");
    const exported = await host.get(`/games/${game.id}/playtest?world=harbor.world.json`);
    assert.equal(exported.status, 200, exported.text);
    const file = parse(exported.text) as { turns: { act?: string; story?: string }[] };
    assert.deepEqual(
      file.turns.map((t) => t.act),
      ["walk to the Gutted Eel", "talk to Mara Venn", "travel to the Old Lighthouse"],
    );
    assert.equal(file.turns[1]!.story, story);
    const scratch = scratchDir();
    scratch.write("harbor.world.json", text);
    const path = scratch.write("controls.test.yaml", exported.text);
    const result = await runPlaytests([path], { cwd: scratch.dir });
    assert.deepEqual(result.files[0]!.problems, []);
    assert.deepEqual(result.files[0]!.tests[0]!.failures, []);
  });

  it("a game longer than the server's bound is refused with a coded error that points to its cassette", {
    timeout: 120_000,
  }, async () => {
    const bounded = await startServer({ playtestMaxTurns: 1 });
    try {
      const game = await isobelsLobby(bounded.url, readFileSync(WORLD, "utf8"));
      const { host, player } = game;
      assert.equal((await host.post(`/games/${game.id}/start`)).status, 200);
      for (const [i, act] of ["look around", "walk to the Gutted Eel"].entries()) {
        await player.post(`/games/${game.id}/actions`, { text: act, idempotencyKey: `b${i}` });
        await eventually(
          () => host.get(`/games/${game.id}`),
          (a) => a.json.tick === i + 1,
        );
        const answer = await host.get(`/games/${game.id}/playtest`);
        if (i === 0) assert.equal(answer.status, 200, "a game at the bound is exported");
        else {
          assert.equal(answer.status, 422);
          assert.equal(answer.json.error.code, "game/playtest-too-long");
          assert.match(answer.json.error.message, /2 turns.*at most 1.*cassette.*taleforge export-test/);
        }
      }
      assert.equal((await host.get(`/games/${game.id}/cassette`)).status, 200);
    } finally {
      await stopServer(bounded);
    }
  });
});
