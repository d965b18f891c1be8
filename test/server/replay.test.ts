import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { playWith, scratchDir } from "../cli/helpers.ts";
import {
  Client,
  closeSandbox,
  dropStore,
  eventually,
  type Running,
  STORE_NAME,
  startServer,
} from "./harness.ts";

const WORLD = new URL("../../examples/harbor.world.json", import.meta.url);

/** Every step's AI answers are stored with it: a server game replays exactly with `taleforge play --replay`. */
describe(`server: a game's cassette replays in play (${STORE_NAME})`, () => {
  let running: Running | undefined;
  after(async () => {
    await running?.close();
    if (running) await dropStore(running.where);
    await closeSandbox();
  });

  it("replays a served game to the tick it reached", { timeout: 120_000 }, async () => {
    running = await startServer();
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", readFileSync(WORLD, "utf8"))).json.hash;
    const game = (await anyone.post("/games", { world: hash, seed: 7, storyStart: "Dawn at the Docks" }))
      .json;
    const joined = (
      await anyone.post("/games/join", { invite: game.invite, character: { premade: "Isobel Carrow" } })
    ).json;
    const host = new Client(running.url, game.hostToken);
    const player = new Client(running.url, joined.token);
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
