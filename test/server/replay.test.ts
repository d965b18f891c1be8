import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { playWith, scratchDir } from "../cli/helpers.ts";
import { eventually, joinedGame, STORE_NAME, suiteServers, uploadWorld } from "./harness.ts";

const WORLD = new URL("../../examples/harbor.world.json", import.meta.url);

/** Every step's AI answers are stored with it: a server game replays exactly with `taleforge play --replay`. */
describe(`server: a game's cassette replays in play (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("replays a served game to the tick it reached", { timeout: 120_000 }, async () => {
    const running = await start();
    const game = await joinedGame(running.url, await uploadWorld(running.url, readFileSync(WORLD, "utf8")), {
      body: { seed: 7, storyStart: "Dawn at the Docks" },
      characters: [{ premade: "Isobel Carrow" }],
    });
    const { host } = game;
    const player = game.players[0]!;
    assert.equal((await host.post(`/games/${game.id}/start`)).status, 200);
    for (const [i, text] of ["walk to the Gutted Eel", "talk to Mara Venn"].entries()) {
      assert.equal(
        (await player.post(`/games/${game.id}/actions`, { text, idempotencyKey: `k${i}` })).status,
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
    const cassette = await host.get(`/games/${game.id}/cassette`);
    assert.equal(cassette.status, 200);
    const scratch = scratchDir();
    const file = scratch.write("server.cassette", cassette.text);
    const replay = await playWith([join("examples", "harbor.world.json"), "--replay", file], []);
    assert.equal(replay.code, 0, replay.err);
    assert.match(replay.out, /Replay finished at turn 2\./);
  });
});
