import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { assertRefused, Client, postFileByCurl, STORE_NAME, suiteServers, WORLD_TEXT } from "./harness.ts";

const OPERATOR = "operator-secret-for-the-test";

/** The example world with another name: new bytes, a new world. */
function variant(n: number): string {
  const world = JSON.parse(WORLD_TEXT);
  world.storySettings.worldBackground += ` (variant ${n})`;
  return JSON.stringify(world);
}

/** A world of some 6.5 MB with thousands of errors: seconds of checking, refused with 422 at the end. */
function heavyInvalidWorld(count = 5000, description = 600): string {
  const world = JSON.parse(WORLD_TEXT);
  const npc = Object.values(world.npcs)[0] as Record<string, unknown>;
  for (let i = 0; i < count; i++)
    world.npcs[`Extra ${i}`] = {
      ...npc,
      name: `Extra ${i}`,
      description: "x".repeat(description),
      currentLocation: `Nowhere ${i}`,
    };
  return JSON.stringify(world);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Uploads (docs/server.md "Uploads"): who may store worlds, how many, and checks off the event loop. */
describe(`server: world uploads (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("needs the operator's token or a game's host token, and bounds each host token's worlds", {
    timeout: 60_000,
  }, async () => {
    const running = await start({ uploads: { open: false, token: OPERATOR, perUploader: 2 } });
    const anyone = new Client(running.url);
    const refused = assertRefused(
      await anyone.call("POST", "/worlds?name=v1", variant(1)),
      401,
      "auth/missing",
      /Uploading a world needs a token.*--upload-token.*host token.*--open-uploads/,
    );
    assert.deepEqual(refused.details, {});
    assertRefused(
      await new Client(running.url, `tfh_${"a".repeat(43)}`).call("POST", "/worlds", variant(1)),
      401,
      "auth/invalid",
      /not one this server issued|token/,
    );
    // Nothing was stored by the refused uploads.
    assert.equal((await anyone.get("/worlds")).json.worlds.length, 1);

    // The operator's token: stored, and counted against no quota.
    const operator = new Client(running.url, OPERATOR);
    for (const n of [1, 2, 3]) assert.equal((await operator.call("POST", "/worlds", variant(n))).status, 201);

    // A host token of a game here: two new worlds, then world/quota.
    const bundled = (await anyone.get("/worlds")).json.worlds.find(
      (w: { bundled: boolean }) => w.bundled,
    ).hash;
    const host = new Client(running.url, (await anyone.post("/games", { world: bundled })).json.hostToken);
    assert.equal((await host.call("POST", "/worlds", variant(10))).status, 201);
    assert.equal((await host.call("POST", "/worlds", variant(11))).status, 201);
    const over = assertRefused(
      await host.call("POST", "/worlds", variant(12)),
      403,
      "world/quota",
      /has stored 2 worlds, the most one uploader may \(2\); nothing was stored/,
    );
    assert.deepEqual(over.details, { per: "uploader", limit: 2 });
    // A world already stored takes no room: 200, created false, whoever stored it.
    const again = await host.call("POST", "/worlds", variant(1));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.created, false);
    // Another game's host token has its own quota.
    const other = new Client(running.url, (await anyone.post("/games", { world: bundled })).json.hostToken);
    assert.equal((await other.call("POST", "/worlds", variant(12))).status, 201);
    assert.equal((await anyone.get("/worlds")).json.worlds.length, 1 + 3 + 2 + 1);
    // A player token is not an upload token.
    const invite = (await anyone.post("/games", { world: bundled })).json.invite;
    const player = (await anyone.post("/games/join", { invite, character: { name: "Ann" } })).json.token;
    assertRefused(
      await new Client(running.url, player).call("POST", "/worlds", variant(20)),
      401,
      "auth/invalid",
      /./,
    );
  });

  it("bounds the bytes of every uploader's worlds together; open uploads count per address", {
    timeout: 60_000,
  }, async () => {
    const size = variant(1).length;
    const running = await start({
      uploads: { open: true, perUploader: 3, totalBytes: Math.floor(size * 2.5) },
    });
    const anyone = new Client(running.url);
    assert.equal((await anyone.call("POST", "/worlds", variant(1))).status, 201);
    assert.equal((await anyone.call("POST", "/worlds", variant(2))).status, 201);
    const full = assertRefused(
      await anyone.call("POST", "/worlds", variant(3)),
      403,
      "world/quota",
      /stores no more uploaded worlds/,
    );
    assert.equal(full.details.per, "server");
  });

  it("stops a check that outlives its time with world/check-timeout, and the next check runs", {
    timeout: 60_000,
  }, async () => {
    // The limit is set from this machine's speed, where both sides have the most room: the geometric
    // mean of an ordinary world's check (a replaced thread is warmed up before its first task) and the
    // heavy world's fastest check (some twenty times longer), so each is several times away from it even
    // if the machine's load changes meanwhile. An ordinary upload's time is the median of five: one
    // upload caught by a pause of the machine or the database (89 ms among 12-19 in one CI run) must
    // not move the limit.
    const probe = await start({
      uploads: { open: true, perUploader: 10 },
      workers: { size: 1, queue: 2 },
    });
    const prober = new Client(probe.url);
    const timed = async (text: string, status: number) => {
      const t = performance.now();
      assert.equal((await prober.call("POST", "/worlds", text)).status, status);
      return performance.now() - t;
    };
    await timed(variant(2), 201); // the thread's start, not timed
    const ordinaries: number[] = [];
    for (let n = 3; n <= 7; n++) ordinaries.push(await timed(variant(n), 201));
    const ordinary = median(ordinaries);
    const heavy = Math.min(
      await timed(heavyInvalidWorld(), 422),
      await timed(heavyInvalidWorld(), 422),
      await timed(heavyInvalidWorld(), 422),
    );
    assert.ok(
      heavy > 8 * ordinary,
      `the heavy check (${heavy} ms) is not far from an ordinary one (${ordinary} ms of ${ordinaries.join(", ")})`,
    );
    // In whole tenths of a second, as the message shows them.
    const limit = Math.max(100, Math.round(Math.sqrt(ordinary * heavy) / 100) * 100);
    const running = await start({
      uploads: { open: true },
      workers: { size: 1, queue: 2, timeoutMs: limit },
    });
    const anyone = new Client(running.url);
    assertRefused(
      await anyone.call("POST", "/worlds", heavyInvalidWorld()),
      422,
      "world/check-timeout",
      new RegExp(`took longer than ${limit / 1000} s, the server's limit; nothing was stored`),
    );
    // The stopped thread is replaced: the next uploads are checked (a cold thread on a loaded machine
    // may still take its first one past the limit: never a 5xx, and stored within five tries).
    let next = await anyone.call("POST", "/worlds", variant(1));
    for (let tries = 1; next.status !== 201 && tries < 5; tries++) {
      assert.equal(next.json.error.code, "world/check-timeout", next.text);
      next = await anyone.call("POST", "/worlds", variant(1));
    }
    assert.equal(next.status, 201, next.text);
  });

  it("checks worlds in work threads: a flood of heavy uploads gets 503 with Retry-After, reads stay fast", {
    timeout: 180_000,
  }, async () => {
    const running = await start({
      uploads: { open: false, token: OPERATOR },
      workers: { size: 1, queue: 2 },
    });
    const anyone = new Client(running.url);
    const bundled = (await anyone.get("/worlds")).json.worlds[0].hash;
    const created = (await anyone.post("/games", { world: bundled, seed: 3 })).json;
    const host = new Client(running.url, created.hostToken);
    const read = async () => {
      const t = performance.now();
      const answer = await host.get(`/games/${created.id}`);
      assert.equal(answer.status, 200);
      return performance.now() - t;
    };
    // A warm-up upload (the work thread starts), then the reads of a quiet server.
    const heavy = heavyInvalidWorld();
    const operator = new Client(running.url, OPERATOR);
    const checking = performance.now();
    assert.equal((await operator.call("POST", "/worlds", heavy)).status, 422);
    const oneCheck = performance.now() - checking;
    const quiet: number[] = [];
    for (let i = 0; i < 15; i++) quiet.push(await read());

    // Sent by other processes (curl), as real clients are: this process's event loop is the server's alone.
    const file = join(mkdtempSync(join(tmpdir(), "taleforge-upload-")), "heavy.world.json");
    writeFileSync(file, heavy);
    const uploads = Promise.all(
      Array.from({ length: 8 }, () =>
        postFileByCurl(`${running.url}/worlds`, file, [`authorization: Bearer ${OPERATOR}`]),
      ),
    );
    let done = false;
    void uploads.finally(() => {
      done = true;
    });
    const loaded: number[] = [];
    const health: number[] = [];
    while (!done) {
      loaded.push(await read());
      health.push((await fetch(`${running.url}/healthz`)).status);
    }
    const answers = await uploads;
    const statuses = answers.map((a) => a.status).sort();
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(busy.length >= 1, `a full queue refuses: ${statuses}`);
    assert.ok(
      answers.every((a) => a.status === 503 || a.status === 422),
      `the others are checked and refused for their errors: ${statuses}`,
    );
    for (const b of busy) {
      assert.equal(b.json.error.code, "server/busy");
      assert.ok(Number(b.retryAfter) >= 1, "Retry-After says when");
    }
    assert.ok(
      health.every((s) => s === 200),
      "health stays green",
    );
    assert.ok(loaded.length >= 5, `${loaded.length} reads during the uploads`);
    // Reads during the flood: as fast as quiet ones give or take the machine's noise (a check on the event
    // loop held each read for a whole check, seconds).
    const bound = 10 * median(quiet) + 150;
    assert.ok(
      median(loaded) <= bound,
      `reads during the uploads: median ${median(loaded).toFixed(0)} ms (quiet ${median(quiet).toFixed(0)} ms, bound ${bound.toFixed(0)} ms)`,
    );
    // And no read waited for a whole check (on the event loop, each read waited for one or more).
    assert.ok(
      Math.max(...loaded) < oneCheck,
      `slowest read ${Math.max(...loaded).toFixed(0)} ms, one check ${oneCheck.toFixed(0)} ms`,
    );
  });
});
