import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { DEFAULT_MAX_STEPS } from "../../src/server/runner.ts";
import {
  Client,
  dropStore,
  eventually,
  type Running,
  STORE_NAME,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

const OPERATOR = "operator-secret-for-the-flood";

/** The example world with a trigger whose script spends its phase's whole CPU budget every turn. */
function loopingWorld(): string {
  const world = JSON.parse(WORLD_TEXT);
  world.triggers.zz_spin = {
    name: "zz_spin",
    conditions: [],
    effects: [],
    recurring: true,
    script: "// Spends its phase's whole CPU budget.\nfor (;;) {}",
  };
  return JSON.stringify(world);
}

/** A world of some 6.5 MB with thousands of errors: seconds of checking, refused with 422 at the end. */
function heavyInvalidWorld(): string {
  const world = JSON.parse(WORLD_TEXT);
  const npc = Object.values(world.npcs)[0] as Record<string, unknown>;
  for (let i = 0; i < 5000; i++)
    world.npcs[`Extra ${i}`] = {
      ...npc,
      name: `Extra ${i}`,
      description: "x".repeat(600),
      currentLocation: `Nowhere ${i}`,
    };
  return JSON.stringify(world);
}

/** A client seen from `address` (the server trusts X-Forwarded-For from the loopback). */
class From extends Client {
  constructor(
    base: string,
    readonly address: string,
    token?: string,
  ) {
    super(base, token);
  }
  override call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.call(method, path, body, { ...headers, "x-forwarded-for": this.address });
  }
}

/** A started one-player game made from `address`. */
async function game(url: string, world: string, address: string) {
  const maker = new From(url, address);
  const created = (await maker.post("/games", { world, seed: 9 })).json;
  const joined = (await maker.post("/games/join", { invite: created.invite, character: { name: "Ann" } }))
    .json;
  const host = new From(url, address, created.hostToken);
  assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
  return { id: created.id as string, host, player: new From(url, address, joined.token), tick: 0 };
}
type Made = Awaited<ReturnType<typeof game>>;

/**
 * Plays the game's next turn: submitted, then read until its tick moves (or the game is paused); every
 * `pollMs` (the hostile games' loops read less often: this process is the server's too).
 */
async function playTurn(g: Made, pollMs = 20): Promise<number> {
  const started = performance.now();
  const next = g.tick + 1;
  const submit = () =>
    g.player.post(`/games/${g.id}/actions`, { text: "look around", idempotencyKey: `t${next}` });
  let sent = await submit();
  if (sent.json?.error?.details?.status === "paused") {
    // Paused after its last turn (its scripts ran out again): a hostile host resumes at once.
    assert.equal((await g.host.post(`/games/${g.id}/resume`)).status, 200);
    sent = await submit();
  }
  assert.equal(sent.status, 202, sent.text);
  const read = await until(
    () => g.host.get(`/games/${g.id}`),
    (a) => a.json.tick >= next || a.json.status === "paused",
    pollMs,
  );
  if (read.json.status === "paused") {
    // A hostile host resumes at once (the flood goes on); the turn stays to play.
    assert.equal((await g.host.post(`/games/${g.id}/resume`)).status, 200);
    await until(
      () => g.host.get(`/games/${g.id}`),
      (a) => a.json.tick >= next,
      pollMs,
    );
  }
  g.tick = next;
  return performance.now() - started;
}

/** Reads until `test` holds, every `pollMs` (at most three minutes). */
async function until<T>(read: () => Promise<T>, test: (value: T) => boolean, pollMs: number): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached in 3 minutes: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** curl's output (in its own process, as a real client). */
function curl(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile("curl", args, { maxBuffer: 64 * 1024 * 1024 }, (_error, stdout) => resolve(stdout ?? ""));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * NOT RUN by `npm test` (the file is not named *.test.ts) until it holds reliably; run it by hand with
 * `npx tsx --test test/server/flood.pending.ts`. Measured 2026-12-07 at load 16-23 on 2 cores, quiet /
 * flooded medians: before the work threads ran at a lower priority, 43 / 237 ms and 82 / 435 ms (the
 * uploads, not the looping games, made the difference: 349 / 296 ms with looping games alone, 61 /
 * 346 ms with uploads alone); after, 56 / 44 ms (passed), 75 / 100 ms on PostgreSQL (passed), 38 /
 * 111 ms (failed, with another flood test beside it), 36 / 45 ms (passed, alone at load 7). A turn of the offline narrator is 30-90 ms, so
 * the machine's noise weighs much; left to do: a longer good turn to measure (a slower narrator
 * server on 127.0.0.1), the clients in child processes (this process is the server's too).
 *
 * Issue 32, "Done when": a flood of hostile uploads and looping games leaves another game's turn
 * within 2x its quiet time. The quiet time is measured in the same run, interleaved with the flood
 * (quiet turns, flooded turns, quiet turns...), so a loaded machine slows both alike; the measure is
 * the median of several turns each way. The flood: heavy uploads (checked in the work threads)
 * sent again as soon as answered, and looping games made by one client that play turn after turn
 * (resumed as soon as paused). What keeps the good game's turn: the looping games' steps are slowed
 * and never hold every step slot, the slots are shared per client, each slot has its own script
 * process, and the checks run in the work threads.
 */
describe(`server: a flood of hostile uploads and looping games (${STORE_NAME})`, () => {
  const sandbox = createSandbox({ processes: DEFAULT_MAX_STEPS });
  let running: Running | undefined;
  after(async () => {
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await sandbox.close();
  });

  it("leaves another game's turn within twice its quiet time (median of interleaved rounds)", {
    timeout: 900_000,
  }, async () => {
    running = await startServer({ scripts: sandbox, uploads: { open: false, token: OPERATOR } });
    const url = running.url;
    const operator = new Client(url, OPERATOR);
    const good = (await operator.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const looping = (await operator.call("POST", "/worlds", loopingWorld())).json.hash as string;
    const file = join(mkdtempSync(join(tmpdir(), "taleforge-flood-")), "heavy.world.json");
    writeFileSync(file, heavyInvalidWorld());

    const player = await game(url, good, "10.8.0.1");
    const hostile: Made[] = [];
    for (let i = 0; i < 4; i++) hostile.push(await game(url, looping, "10.9.0.9"));
    // Warm: the good game's first turn; the looping games' first turns (their scripts ran out: slowed).
    await playTurn(player);
    for (let turn = 0; turn < 2; turn++) await Promise.all(hostile.map((g) => playTurn(g)));

    let flooding = false;
    let hostileTurns = 0; // Looping turns asked for (202).
    let uploads = 0;
    const flood = () => {
      flooding = true;
      // Each looping game keeps a turn asked for (resumed at once when paused), never waiting on it.
      const loops = hostile.map(async (g) => {
        try {
          while (flooding) {
            const read = await g.host.get(`/games/${g.id}`);
            if (read.json.status === "paused")
              assert.equal((await g.host.post(`/games/${g.id}/resume`)).status, 200);
            else if (!read.json.players[0].submitted) {
              const next = read.json.tick + 1;
              const sent = await g.player.post(`/games/${g.id}/actions`, {
                text: "look around",
                idempotencyKey: `t${next}`,
              });
              if (sent.status === 202) hostileTurns++;
            }
            await new Promise((r) => setTimeout(r, 250));
          }
        } catch (error) {
          flooding = false; // Every loop stops; the test fails with this error where the flood is awaited.
          throw error;
        }
      });
      const senders = Array.from({ length: 4 }, async () => {
        while (flooding) {
          await curl([
            "-s",
            "-o",
            "/dev/null",
            "-X",
            "POST",
            "-H",
            `authorization: Bearer ${OPERATOR}`,
            "-H",
            "content-type: application/json",
            "-H",
            "expect:",
            "--data-binary",
            `@${file}`,
            `${url}/worlds`,
          ]);
          uploads++;
        }
      });
      return Promise.all([...loops, ...senders]);
    };

    const quiet: number[] = [];
    const flooded: number[] = [];
    try {
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 2; i++) quiet.push(await playTurn(player));
        const turnsBefore = hostileTurns;
        const uploadsBefore = uploads;
        const flow = flood();
        // The flood is on once looping turns are asked for and an upload has been answered since it started.
        await eventually(
          async () => ({ turns: hostileTurns, uploads }),
          (n) => (n.turns > turnsBefore && n.uploads > uploadsBefore) || !flooding,
          300_000,
        );
        for (let i = 0; i < 2; i++) flooded.push(await playTurn(player));
        flooding = false;
        await flow;
      }
    } finally {
      flooding = false; // A failed turn stops the flood too.
    }
    const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
    console.log(
      `flood (${STORE_NAME}): quiet turns ${ms(quiet)} ms (median ${median(quiet).toFixed(0)}); flooded ${ms(flooded)} ms (median ${median(flooded).toFixed(0)}); ${hostileTurns} looping turns, ${uploads} uploads`,
    );
    assert.ok(
      median(flooded) <= 2 * median(quiet),
      `a turn during the flood took ${median(flooded).toFixed(0)} ms (median), quiet ${median(quiet).toFixed(0)} ms: more than twice`,
    );
  });
});
