import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { PAUSE_AFTER } from "../../src/server/runner.ts";
import {
  Client,
  eventually,
  listen,
  loopingWorld,
  STORE_NAME,
  startedGame,
  suiteServer,
  WORLD_TEXT,
} from "./harness.ts";

const HOSTILE = 4;

/**
 * Issue 32, finding 5: games whose scripts loop to their budget do not starve the others. One step
 * runs at a time; four looping games have their turns waiting when a good game's turn comes: the
 * good one runs next (its host has nothing running and was not served lately; the looping games
 * are slowed), not after all of them. A game whose scripts keep looping is paused, with a message.
 */
describe(`server: looping games do not starve the others (${STORE_NAME})`, () => {
  let anyone: Client;
  let looping: string;
  let good: string;
  const running = suiteServer({ maxSteps: 1 });
  before(async () => {
    anyone = new Client(running.url);
    good = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    looping = (await anyone.call("POST", "/worlds", loopingWorld())).json.hash;
  });

  const game = async (world: string) => {
    const made = await startedGame(running.url, world, { body: { seed: 4 } });
    return { id: made.id, host: made.host, player: made.players[0]!, token: made.tokens[0]! };
  };
  const act = (g: Awaited<ReturnType<typeof game>>, tick: number) =>
    g.player.post(`/games/${g.id}/actions`, { text: "look around", idempotencyKey: `t${tick}` });
  const turnAt = async (g: Awaited<ReturnType<typeof game>>, tick: number) => {
    const done = await eventually(
      () => g.player.get(`/games/${g.id}/transcript`),
      (a) => a.json.transcript.length > tick,
      120_000,
    );
    return Number(done.json.transcript[tick].at);
  };

  it("runs a good game's turn before the looping games' queued turns", { timeout: 300_000 }, async () => {
    const hostile = [];
    for (let i = 0; i < HOSTILE; i++) hostile.push(await game(looping));
    // A first turn each: the looping games have been served, and their scripts ran out once.
    for (let tick = 1; tick <= 2; tick++) {
      for (const g of hostile) assert.equal((await act(g, tick)).status, 202);
      for (const g of hostile) await turnAt(g, tick);
    }
    const fine = await game(good);
    for (const g of hostile) assert.equal((await act(g, 3)).status, 202);
    await new Promise((r) => setTimeout(r, 100));
    const sent = Date.now();
    assert.equal((await act(fine, 1)).status, 202);
    const goodAt = await turnAt(fine, 1);
    const hostileAt = await Promise.all(hostile.map((g) => turnAt(g, 3)));
    const before = hostileAt.filter((at) => at > sent && at < goodAt).length;
    assert.ok(
      before <= 1,
      `${before} looping turns that were waiting ran before the good game's (at most the one running)`,
    );
  });

  it(`pauses a game whose scripts ran out of budget ${PAUSE_AFTER} turns in a row, and says why`, {
    timeout: 300_000,
  }, async () => {
    const g = await game(looping);
    const stream = listen(`${running.url}/games/${g.id}/events`, g.token);
    try {
      for (let tick = 1; tick <= PAUSE_AFTER; tick++) {
        assert.equal((await act(g, tick)).status, 202);
        await turnAt(g, tick);
      }
      const paused = await eventually(
        () => g.host.get(`/games/${g.id}`),
        (a) => a.json.status === "paused",
        10_000,
      );
      assert.equal(paused.json.status, "paused");
      await stream.until((events) => events.some((e) => e.event === "status" && e.data.status === "paused"));
      const event = stream.events.find((e) => e.event === "status" && e.data.status === "paused")!;
      assert.equal(event.data.reason, "script-budget");
      assert.match(event.data.message, /scripts ran out of their time budget .* the host can resume/);
      // The host resumes; the game plays on.
      assert.equal((await g.host.post(`/games/${g.id}/resume`)).status, 200);
      assert.equal((await act(g, PAUSE_AFTER + 1)).status, 202);
      await turnAt(g, PAUSE_AFTER + 1);
    } finally {
      stream.close();
    }
  });
});
