import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { PAUSE_AFTER } from "../../src/server/runner.ts";
import {
  Client,
  closeSandbox,
  dropStore,
  eventually,
  From,
  loopingWorld,
  type Running,
  STORE_NAME,
  startedGame,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

/** A started one-player game made by a client at `address`. */
async function game(url: string, world: string, address: string) {
  const made = await startedGame(url, world, { body: { seed: 4 }, address });
  return { id: made.id, host: made.host as From, player: made.players[0] as From };
}
type Made = Awaited<ReturnType<typeof game>>;

const act = (g: Made, tick: number) =>
  g.player.post(`/games/${g.id}/actions`, { text: "look around", idempotencyKey: `t${tick}` });

/** When the game's turn `tick` was committed (its transcript row's time). */
async function turnAt(g: Made, tick: number): Promise<number> {
  const done = await eventually(
    () => g.player.get(`/games/${g.id}/transcript`),
    (a) => a.json.transcript.length > tick,
    120_000,
  );
  return Number(done.json.transcript[tick].at);
}

/**
 * Issue 32, "Fairness between games ... per game and per host": the fair share of step slots is per
 * client that made the games (their creator's address), not per game's host token, which anyone gets
 * as many of as they make games; and the strikes that slow, then pause, a game whose scripts keep
 * running out of their budget are kept in the store, so a restart (or another process) does not
 * forgive them.
 */
describe(`server: fair shares per host, strikes kept in the store (${STORE_NAME})`, () => {
  const servers: Running[] = [];
  const start = async (options: Parameters<typeof startServer>[0]) => {
    const running = await startServer(options);
    servers.push(running);
    return running;
  };
  after(async () => {
    for (const running of servers) await running.close().catch(() => {});
    for (const where of new Set(servers.map((s) => s.where))) await dropStore(where);
    await closeSandbox();
  });

  it("a client with many games waiting gets one host's share: another host's turn runs next", {
    timeout: 300_000,
  }, async () => {
    // One step at a time: the order the slot is given in is the whole story.
    const running = await start({ maxSteps: 1 });
    const world = (await new Client(running.url).call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const many: Made[] = [];
    for (let i = 0; i < 5; i++) many.push(await game(running.url, world, "10.1.0.1"));
    const other = await game(running.url, world, "10.2.0.2");
    // The busy client's five turns go in first, then the other host's one.
    for (const g of many) assert.equal((await act(g, 1)).status, 202);
    const sent = Date.now();
    assert.equal((await act(other, 1)).status, 202);
    const otherAt = await turnAt(other, 1);
    const manyAt = await Promise.all(many.map((g) => turnAt(g, 1)));
    const before = manyAt.filter((at) => at >= sent && at <= otherAt).length;
    // Per game token, each of the five was a host of its own, served before the other: it ran last.
    assert.ok(
      before <= 1,
      `${before} of the busy client's waiting turns ran before the other host's (at most the one running)`,
    );
  });

  it(`pauses a looping game after ${PAUSE_AFTER} turns in a row over its budget, counted across a restart`, {
    timeout: 300_000,
  }, async () => {
    const first = await start({});
    const world = (await new Client(first.url).call("POST", "/worlds", loopingWorld())).json.hash as string;
    const g = await game(first.url, world, "10.3.0.3");
    const early = PAUSE_AFTER - 2;
    for (let tick = 1; tick <= early; tick++) {
      assert.equal((await act(g, tick)).status, 202);
      await turnAt(g, tick);
    }
    assert.equal((await g.host.get(`/games/${g.id}`)).json.status, "running");
    // The process stops; another opens the same store (in memory, the count started again at 0).
    await first.close();
    const second = await start({ where: first.where });
    const at = (c: From) => new From(second.url, c.address, c.token);
    const moved: Made = { id: g.id, host: at(g.host), player: at(g.player) };
    for (let tick = early + 1; tick <= PAUSE_AFTER; tick++) {
      assert.equal((await act(moved, tick)).status, 202);
      await turnAt(moved, tick);
    }
    const paused = await eventually(
      () => moved.host.get(`/games/${g.id}`),
      (a) => a.json.status === "paused",
      30_000,
    );
    assert.equal(paused.json.status, "paused", `after ${PAUSE_AFTER} turns over budget, two processes`);
  });
});
