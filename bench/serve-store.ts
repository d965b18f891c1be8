/**
 * The SQLite store alone, as a served turn uses it (issue 38): what `taleforge serve`'s routes and
 * runner ask of the store per turn, for GAMES games at once, without HTTP, the engine or the sandbox.
 * Per turn of each game: the submission's auth (the player by token, the game), the submission, the
 * runner's look (gameForTurn), the claim with the turn's inputs, the restore's read (lastTurn), the
 * commit (a turn row with 27 + 19 + 3 KB of JSON, log entries, the turn event) and the event stream's
 * two reads (after the submission's wake and after the commit's). WARMUP rounds unmeasured, then ROUNDS.
 *
 *   npx tsx bench/serve-store.ts [--games 50] [--warmup 3] [--rounds 10] [--queries] [--dump rows.jsonl]
 *
 * Prints the CPU per turn of each thread (/proc/self/task: the main thread, SQLite's thread and the
 * rest), and with --queries the messages to SQLite's thread per turn. Not a `npm run bench` section: a
 * probe for the store's own cost, whose counts (messages, CPU split) decide the store's changes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gameEvents } from "../src/server/events.ts";
import { openStore } from "../src/server/store/open.ts";
import { SqliteThread } from "../src/server/store/sqlite-thread.ts";
import { type EventId, Store, type Turn } from "../src/server/store/store.ts";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "50" },
    warmup: { type: "string", default: "3" },
    rounds: { type: "string", default: "10" },
    queries: { type: "boolean", default: false },
    // Every table's rows written to this file as JSON lines (blobs as hex), with a fixed clock, for
    // comparing two builds' stored bytes.
    dump: { type: "string" },
  },
});
if (values.dump) Date.now = () => 1_800_000_000_000;
const GAMES = Number(values.games);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);

let messages = 0;
const query = SqliteThread.prototype.query;
SqliteThread.prototype.query = function (this: SqliteThread, ...args: Parameters<typeof query>) {
  messages++;
  return query.apply(this, args);
};
const transaction = SqliteThread.prototype.transaction;
SqliteThread.prototype.transaction = function (this: SqliteThread, ...args: Parameters<typeof transaction>) {
  messages++;
  return transaction.apply(this, args);
};
const reads = SqliteThread.prototype.reads;
SqliteThread.prototype.reads = function (this: SqliteThread, ...args: Parameters<typeof reads>) {
  messages++;
  return reads.apply(this, args);
};
const atomic = SqliteThread.prototype.atomic;
// Before this store's one-message transactions (transaction), atomic was a message of its own.
if (!atomic.toString().includes("transaction"))
  SqliteThread.prototype.atomic = function (this: SqliteThread, ...args: Parameters<typeof atomic>) {
    messages++;
    return atomic.apply(this, args);
  };

/** CPU (µs) of this process's threads: the main one, SQLite's (the first thread named "node" to start after it), the rest. */
function threads(): Map<number, { name: string; us: number }> {
  const out = new Map<number, { name: string; us: number }>();
  for (const id of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(Number(id), {
      name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
      us: ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6,
    });
  }
  return out;
}

// JSON of the example world, cut to a turn row's texts' sizes: deflate sees text like a save's.
const world = readFileSync(join(process.cwd(), "examples/harbor.world.json"), "utf8");
const cut = (at: number, size: number, n: number) => `${world.slice(at, at + size)}"turn":${n}}`;

const dir = mkdtempSync(join(tmpdir(), "tf-store-"));
const before = new Set(threads().keys());
const store = new Store(await openStore({ data: dir }));
const sqliteThreads = [...threads().keys()].filter((id) => !before.has(id));
const now = Date.now();
await store.putWorld({ hash: "w", name: "w", text: "{}", bytes: 2, warnings: "[]", created_at: now });
const games: { id: string; token: string; player: string; seq: number; tick: number; last: EventId }[] = [];
for (let g = 0; g < GAMES; g++) {
  const id = `game-${g}`;
  await store.importGame(
    {
      id,
      world_hash: "w",
      status: "running",
      host_token_hash: `h-${g}`,
      invite_code: `i-${g}`,
      seed: 1,
      story_start: null,
      game_mode: null,
      narrator: "offline",
      seq: 0,
      tick: 0,
      forced_tick: null,
      turn_timeout_ms: null,
      turn_opened_at: null,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
    },
    {
      game_id: id,
      seq: 0,
      parent: null,
      kind: "import",
      tick: 0,
      state: cut(0, 27_000, 0),
      inputs: "{}",
      cassette: "[]",
      trace: null,
      result: "{}",
      narration: "",
      created_at: now,
    },
  );
  await store.addPlayer(
    {
      id: `p-${g}`,
      game_id: id,
      name: "Ann",
      spec: "{}",
      token_hash: `t-${g}`,
      status: "active",
      joined_at: now,
    } as Parameters<Store["addPlayer"]>[0],
    gameEvents.playerJoined({ player: `p-${g}`, name: "Ann" } as never),
  );
  games.push({ id, token: `t-${g}`, player: `p-${g}`, seq: 1, tick: 0, last: await store.newestEventId(id) });
}

/** The event stream's read after a wake: every event after the last one it wrote. */
async function follow(game: (typeof games)[number]): Promise<void> {
  const batch = await store.events(game.id, game.last, 200);
  for (const e of batch) game.last = { seq: Number(e.seq), sub: Number(e.sub) };
}

async function turn(game: (typeof games)[number], round: number): Promise<void> {
  const tick = game.tick + 1;
  // The route: the player by token, then the game.
  const player = await store.playerByToken(game.token);
  await store.game(player!.game_id);
  const stored = await store.addSubmission(
    {
      id: `s-${game.id}-${tick}`,
      game_id: game.id,
      player_id: game.player,
      tick,
      text: "walk to the Gutted Eel",
      idempotency_key: `k-${game.id}-${tick}`,
      created_at: Date.now(),
    } as Parameters<Store["addSubmission"]>[0],
    gameEvents.submission({ player: game.player, name: "Ann", tick }),
  );
  if (stored !== "ok") throw new Error(`submission ${stored}`);
  await follow(game);
  // The runner: its look, the claim and inputs, the restore's read, the commit.
  const look = await store.gameForTurn(game.id);
  const claimed = await store.claimTurn(look.game!, "owner", Date.now() + 60_000, tick);
  if (claimed === undefined) throw new Error("not claimed");
  const last = claimed.last ?? (await store.lastTurn(game.id));
  const row: Turn = {
    game_id: game.id,
    seq: game.seq,
    parent: last!.seq,
    kind: "turn",
    tick,
    state: cut(round * 7, 27_000, round),
    inputs: JSON.stringify({ actions: [{ player: "Ann", text: "walk to the Gutted Eel" }] }),
    cassette: cut(40_000 + round, 3_000, round),
    trace: cut(10_000 + round * 3, 19_000, round),
    result: cut(60_000, 1_500, round),
    narration: world.slice(70_000, 70_600),
    created_at: Date.now(),
  };
  const logs = [0, 1, 2].map((n) => ({
    tick,
    phase: "after",
    type: "trigger",
    trigger: `t${n}`,
    message: world.slice(80_000 + n * 100, 80_080 + n * 100),
  }));
  const event = gameEvents.turn(
    JSON.parse(`{"seq":${game.seq},"story":${JSON.stringify(world.slice(70_000, 72_000))}}`),
  );
  if (!(await store.commitStep(row, "owner", logs as never, [event]))) throw new Error("not committed");
  game.seq++;
  game.tick = tick;
  await follow(game);
}

let measured = { main: 0, sqlite: 0, other: 0, messages: 0, turns: 0 };
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  const start = threads();
  const messagesBefore = messages;
  await Promise.all(games.map((g) => turn(g, round)));
  if (round < WARMUP) continue;
  const end = threads();
  // SQLite's thread: the busiest of the threads the store started (the other is its checkpointer).
  let sqliteUs = 0;
  for (const [id, t] of end) {
    const spent = t.us - (start.get(id)?.us ?? 0);
    if (id === process.pid) measured.main += spent;
    else if (sqliteThreads.includes(id) && spent > sqliteUs) {
      measured.other += sqliteUs;
      sqliteUs = spent;
    } else measured.other += spent;
  }
  measured.sqlite += sqliteUs;
  measured.messages += messages - messagesBefore;
  measured.turns += GAMES;
}
const per = (us: number) => (us / measured.turns / 1000).toFixed(3);
console.log(
  `${measured.turns} turns: ms CPU per turn: main ${per(measured.main)}, SQLite's thread ${per(measured.sqlite)}, other threads ${per(measured.other)}, all ${per(measured.main + measured.sqlite + measured.other)}${values.queries ? `; messages per turn ${(measured.messages / measured.turns).toFixed(2)}` : ""}`,
);
if (values.dump) {
  const lines: string[] = [];
  for (const table of [
    "games",
    "players",
    "submissions",
    "turns",
    "log_entries",
    "events",
    "branch_names",
  ] as const) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    for (const row of rows)
      lines.push(
        JSON.stringify({ table, ...row }, (_, v) =>
          v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v,
        ),
      );
  }
  writeFileSync(values.dump, `${lines.sort().join("\n")}\n`);
}
await store.open.close();
rmSync(dir, { recursive: true, force: true });
measured = { main: 0, sqlite: 0, other: 0, messages: 0, turns: 0 };
