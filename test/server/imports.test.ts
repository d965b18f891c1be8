import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  assertRefused,
  Client,
  postFileByCurl,
  type Running,
  STORE_NAME,
  startedGame,
  suiteServers,
} from "./harness.ts";

/** A started one-player game of the example world: its id, world hash, host client and save. */
async function savedGame(running: Running) {
  const anyone = new Client(running.url);
  // The bundled example world: stored at the start, without a check in the pool (whose time limit may be short).
  const hash = (await anyone.get("/worlds")).json.worlds[0].hash as string;
  const created = await startedGame(running.url, hash, { body: { seed: 5 } });
  const host = created.host;
  const save = JSON.parse((await host.get(`/games/${created.id}/save`)).text) as Record<string, unknown>;
  return { id: created.id as string, hash, host, save };
}

/**
 * A save of some 7.5 MB that is still a save: a field this engine does not read, holding hundreds of
 * thousands of small arrays (numbers only, so that it stays under the 8 MiB limit inside a JSON body).
 * Reading it (nesting scan, parse, the engine's reading) took more than a second of the event loop.
 */
function heavySave(save: Record<string, unknown>): string {
  return JSON.stringify({ ...save, padding: Array.from({ length: 420_000 }, (_, i) => [i, [1, 2, 3]]) });
}

/**
 * Issue 32: "Nothing a client sends runs on the event loop beyond a bounded slice": an imported save is
 * read in the work pool (src/server/work), like a world's check. Before, `POST /games/import` read it on
 * the event loop: never a 503 however many came at once, and no limit on its time.
 */
describe(`server: imported saves are read in work threads (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("a flood of heavy imports gets 503 with Retry-After when the queue is full; health and reads stay up", {
    timeout: 180_000,
  }, async () => {
    const running = await start({ workers: { size: 1, queue: 1 } });
    const { id, hash, host, save } = await savedGame(running);
    const anyone = new Client(running.url);
    const heavy = heavySave(save);
    // One alone is read and imported (the thread starts; the padding is not kept).
    const alone = await anyone.post("/games/import", { world: hash, save: heavy });
    assert.equal(alone.status, 201, alone.text);
    assert.deepEqual(alone.json.characters, ["Ann"]);

    const file = join(mkdtempSync(join(tmpdir(), "taleforge-import-")), "import.json");
    writeFileSync(file, JSON.stringify({ world: hash, save: heavy }));
    const imports = Promise.all(
      Array.from({ length: 8 }, () => postFileByCurl(`${running.url}/games/import`, file)),
    );
    let done = false;
    void imports.finally(() => {
      done = true;
    });
    const reads: number[] = [];
    const health: number[] = [];
    while (!done) {
      reads.push((await host.get(`/games/${id}`)).status);
      health.push((await fetch(`${running.url}/healthz`)).status);
    }
    const answers = await imports;
    const statuses = answers.map((a) => a.status).sort();
    const busy = answers.filter((a) => a.status === 503);
    // One thread and one place in its queue: of eight sent at once, at most two are read, the rest wait
    // outside (on the event loop, every one was read, one after another).
    assert.ok(busy.length >= 1, `a full queue refuses: ${statuses}`);
    assert.ok(
      answers.every((a) => a.status === 503 || a.status === 201),
      `the others are imported: ${statuses}`,
    );
    for (const b of busy) {
      assert.equal(b.json.error.code, "server/busy");
      assert.match(b.json.error.message, /reading saves/);
      assert.ok(Number(b.retryAfter) >= 1, "Retry-After says when");
    }
    assert.ok(
      health.every((s) => s === 200),
      "health stays green",
    );
    assert.ok(
      reads.every((s) => s === 200),
      "the other game's reads are answered",
    );
  });

  it("stops reading a save that outlives the work threads' time limit, with save/invalid; the next import runs", {
    timeout: 120_000,
  }, async () => {
    // The limit is set from this machine's speed, where both sides have the most room: the geometric
    // mean of an ordinary import and the heavy one (on a probe server, its thread started first), in
    // whole tenths of a second as the message shows them, so each is several times away from it even if
    // the machine's load changes meanwhile.
    const probe = await start({ workers: { size: 1, queue: 2 } });
    const probed = await savedGame(probe);
    const prober = new Client(probe.url);
    const timed = async (save: string) => {
      const t = performance.now();
      const answer = await prober.post("/games/import", { world: probed.hash, save });
      assert.equal(answer.status, 201, answer.text);
      return performance.now() - t;
    };
    await timed(JSON.stringify(probed.save)); // the thread's start, not timed
    const ordinary = Math.max(
      await timed(JSON.stringify(probed.save)),
      await timed(JSON.stringify(probed.save)),
    );
    const heavyText = heavySave(probed.save);
    const heavy = Math.min(await timed(heavyText), await timed(heavyText));
    assert.ok(
      heavy > 8 * ordinary,
      `the heavy import (${heavy} ms) is not far from an ordinary one (${ordinary} ms)`,
    );
    const limit = Math.max(100, Math.round(Math.sqrt(ordinary * heavy) / 100) * 100);
    const running = await start({ workers: { size: 1, queue: 2, timeoutMs: limit } });
    const { hash, save } = await savedGame(running);
    const anyone = new Client(running.url);
    assertRefused(
      await anyone.post("/games/import", { world: hash, save: heavySave(save) }),
      422,
      "save/invalid",
      new RegExp(
        `Reading this save took longer than ${limit / 1000} s, the server's limit; no game was made`,
      ),
    );
    // The stopped thread is replaced: the next import is read (a cold thread on a loaded machine may
    // take its first one past the limit: never a 5xx, and imported within five tries).
    let next = await anyone.post("/games/import", { world: hash, save: JSON.stringify(save) });
    for (let tries = 1; next.status !== 201 && tries < 5; tries++) {
      assert.equal(next.json.error.code, "save/invalid", next.text);
      next = await anyone.post("/games/import", { world: hash, save: JSON.stringify(save) });
    }
    assert.equal(next.status, 201, next.text);
  });
});
