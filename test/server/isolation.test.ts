import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Client, eventually, STORE_NAME, startedGame, suiteServer, WORLD_TEXT } from "./harness.ts";

/** The example world with two hostile triggers firing every turn: one loops forever, one allocates without end. */
function hostileWorld(): string {
  const world = JSON.parse(WORLD_TEXT);
  world.triggers.zz_hostile_loop = {
    name: "zz_hostile_loop",
    conditions: [],
    effects: [],
    recurring: true,
    script: "// Spends its phase's whole CPU budget.\nfor (;;) {}",
  };
  world.triggers.zz_hostile_memory = {
    name: "zz_hostile_memory",
    conditions: [],
    effects: [],
    recurring: true,
    script:
      "// Grows until the memory limit ends it.\nconst keep = [];\nfor (;;) keep.push(new Array(1e6).fill(1.5));",
  };
  return JSON.stringify(world);
}

const ACTIONS = ["walk to the Gutted Eel", "ask the barkeep about the lighthouse", "look around"];

/**
 * Two games run concurrently on one server (one sandbox), one of them on a
 * world whose scripts loop forever and allocate without end: the good game's
 * turns complete, its state is exactly what the same game played alone
 * reaches, and it waits no longer than the hostile scripts' own budgets; the
 * hostile game pays for its scripts (their failures are in its log) and goes on.
 */
describe(`server: a hostile game beside a good one (${STORE_NAME})`, () => {
  let anyone: Client;
  let good: string;
  let hostile: string;
  const running = suiteServer();
  before(async () => {
    anyone = new Client(running.url);
    good = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const uploaded = await anyone.call("POST", "/worlds", hostileWorld());
    assert.equal(uploaded.status, 201, uploaded.text);
    hostile = uploaded.json.hash;
  });

  /** Plays one game of three turns; answers its host, its save and each turn's latency. */
  const play = async (world: string) => {
    const created = await startedGame(running.url, world, { body: { seed: 21, narrator: "offline" } });
    const host = created.host;
    const ann = created.players[0]!;
    const latencies: number[] = [];
    for (const [i, text] of ACTIONS.entries()) {
      const started = Date.now();
      assert.equal(
        (await ann.post(`/games/${created.id}/actions`, { text, idempotencyKey: `k${i}` })).status,
        202,
      );
      await eventually(
        () => host.get(`/games/${created.id}`),
        (a) => a.json.tick === i + 1,
        120_000,
      );
      latencies.push(Date.now() - started);
    }
    const save = (await host.get(`/games/${created.id}/save`)).text;
    return { id: created.id, host, save, latencies };
  };

  it("keeps the good game's turns and state as if it were alone", { timeout: 300_000 }, async () => {
    const alone = await play(good);
    const [beside, bad] = await Promise.all([play(good), play(hostile)]);
    assert.equal(beside.save, alone.save, "the good game's state is exactly the state it reaches alone");
    // Each hostile turn may hold the one sandbox process for its two phases' budgets (500 ms of CPU, 5 s of
    // wall clock at worst each); the good turn waits at most that, plus the machine's own slowness.
    const bound = Math.max(...alone.latencies) * 3 + 2 * 5000 + 5000;
    for (const ms of beside.latencies) assert.ok(ms < bound, `a good turn took ${ms} ms (bound ${bound} ms)`);
    const log = (await bad.host.get(`/games/${bad.id}/log?type=trigger-script-error`)).json;
    const text = JSON.stringify(log);
    assert.match(text, /zz_hostile_loop/, "the looping script failed in its own game");
    assert.match(text, /zz_hostile_memory/, "the allocating script failed in its own game");
    const goodLog = JSON.stringify((await beside.host.get(`/games/${beside.id}/log`)).json);
    assert.doesNotMatch(goodLog, /zz_hostile|trigger-script-error/);
  });
});
