import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  eventually,
  freshStore,
  listen,
  offlineNarrator,
  type Running,
  STORE_NAME,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

/**
 * The database fails in the middle of a turn, then comes back. PostgreSQL:
 * every connection of this server (its pool and its LISTEN connection, found
 * by their application_name; the shared cluster is not restarted) is
 * terminated while the turn is running. SQLite: another connection holds the
 * file's write lock past the busy timeout, so the turn's commit fails. Either
 * way the game stays at its previous turn, requests meanwhile answer 503 (never
 * 500), the server runs the turn again by itself once the store answers, and
 * the game goes on: nothing lost, nothing applied twice or half.
 */
/** Waits for `promise`, failing with `what` after `ms` (nothing here may hang the suite). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe(`server: the database fails mid-turn (${STORE_NAME})`, () => {
  const base = freshStore();
  const where = base.database
    ? {
        ...base,
        database: `${base.database}${base.database.includes("?") ? "&" : "?"}application_name=${base.schema}`,
      }
    : base;
  let running: Running;
  let gate: Promise<void> | null = null;
  let entered: () => void = () => {};
  before(async () => {
    running = await startServer({
      where,
      leaseMs: 3000,
      narrator: (world, game) =>
        new Proxy(offlineNarrator(world, game), {
          get(target, key) {
            const value = Reflect.get(target, key);
            if (key === "classify" && typeof value === "function")
              return async (...args: unknown[]) => {
                if (gate) {
                  entered();
                  await gate;
                }
                return value.apply(target, args);
              };
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
    });
  });
  after(async () => {
    await within(running.close(), 30_000, "closing the server").catch((error) =>
      console.error(String(error)),
    );
    await dropStore(base);
    await closeSandbox();
  });

  it("keeps the game at its previous turn, then runs the turn once when the store is back", {
    timeout: 120_000,
  }, async () => {
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 11 })).json;
    const host = new Client(running.url, created.hostToken);
    const players: Client[] = [];
    for (const name of ["Ann", "Bea"])
      players.push(
        new Client(
          running.url,
          (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
        ),
      );
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    const stream = listen(`${running.url}/games/${created.id}/events`, (players[0] as Client).token!);
    const game = () => host.get(`/games/${created.id}`);
    const play = async (tick: number) => {
      for (const [i, p] of players.entries()) {
        const sent = await p.post(`/games/${created.id}/actions`, {
          text: `turn ${tick}: ${i === 0 ? "look around" : "keep watch"}`,
          idempotencyKey: `t${tick}`,
        });
        assert.equal(sent.status, 202, sent.text);
      }
    };

    await play(1);
    await eventually(game, (a) => a.json.tick === 1);

    // Turn 2 stops in the narrator; the store fails; then the turn goes on.
    let release: () => void = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const inTurn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    await play(2);
    await within(inTurn, 30_000, "turn 2 reaching the narrator");
    const before = (await host.get(`/games/${created.id}/save`)).text;
    if (DATABASE_URL) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
        [base.schema],
      );
      await admin.end();
      assert.ok(killed.rowCount! >= 2, "the pool's and the listener's connections were terminated");
      gate = null;
      release();
      for (let i = 0; i < 5; i++) {
        const answer = await game();
        assert.ok([200, 503].includes(answer.status), answer.text);
        if (answer.status === 503) assert.equal(answer.json.error.code, "server/unavailable");
      }
    } else {
      const other = new SqliteDatabase(join(base.data!, "taleforge.sqlite"));
      other.exec("begin exclusive");
      gate = null;
      // The commit waits for the lock (the busy timeout, 5 s) and fails; the lock is given back after.
      setTimeout(() => {
        other.exec("rollback");
        other.close();
      }, 500);
      release();
    }
    const done = await eventually(game, (a) => a.json.tick === 2, 60_000);
    assert.equal(done.json.tick, 2, "the turn ran once the store was back");
    assert.notEqual((await host.get(`/games/${created.id}/save`)).text, before);

    await play(3);
    await eventually(game, (a) => a.json.tick === 3);
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 3));
    stream.close();

    const transcript = (await host.get(`/games/${created.id}/transcript`)).json.transcript as {
      tick: number;
      inputs: { actions?: { player: string; text: string }[] };
    }[];
    assert.deepEqual(
      transcript.map((t) => t.tick),
      [0, 1, 2, 3],
      "each turn once",
    );
    assert.deepEqual(transcript[2]!.inputs.actions, [
      { player: "Ann", text: "turn 2: look around" },
      { player: "Bea", text: "turn 2: keep watch" },
    ]);
    const turns = stream.events.filter((e) => e.event === "turn").map((e) => e.data.tick);
    assert.deepEqual(turns, [0, 1, 2, 3], "the event stream saw every turn once");
    const ids = stream.events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      "event ids only go up",
    );
    assert.equal(new Set(ids).size, ids.length);
  });
});
