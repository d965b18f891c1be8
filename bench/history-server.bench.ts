import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { createServer } from "../src/server/app.ts";
import { createLogger } from "../src/server/logger.ts";
import { openStore } from "../src/server/store/open.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { generateWorld } from "./generate-world.ts";
import { median, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * The game's history (issue 33) in the server, on the at-cap world: a game of 500 turns played over
 * HTTP (offline narrator, real sandbox), then the rewind route to random turns (each followed by a
 * switch back to the first story's tip), the branch list, a world diff of every branch with the
 * current one, and the bytes the turns table holds per turn. SQLite embedded; PostgreSQL too when
 * TALEFORGE_TEST_DATABASE_URL (or TALEFORGE_BENCH_DATABASE_URL) is set, as the serve bench.
 * TALEFORGE_BENCH_HISTORY_TURNS changes the 500.
 */
const TURNS = Number(process.env.TALEFORGE_BENCH_HISTORY_TURNS ?? 500);
const BRANCHES = 10;
const TARGET_REWIND_MS = 50;
const DATABASE = process.env.TALEFORGE_TEST_DATABASE_URL || process.env.TALEFORGE_BENCH_DATABASE_URL;

const bench: BenchModule = {
  name: "history-server",
  title: `Story history in the server: rewind route, branches, storage per turn (at-cap world, ${TURNS} turns)`,
  run,
};
export default bench;

const ACTIONS = [
  "I ask about the old legends of the region.",
  "I try to pry the door open.",
  "I offer to help with repairs.",
  "I look around quietly.",
];

function picker(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text === "" ? {} : JSON.parse(text);
}

async function run(context: BenchContext): Promise<void> {
  const stores: { label: string; where: Parameters<typeof openStore>[0]; schema?: string }[] = [
    { label: "SQLite (embedded)", where: { data: mkdtempSync(join(context.workDir, "history-")) } },
  ];
  if (DATABASE) {
    const schema = `bench_history_${process.pid}`;
    stores.push({ label: "PostgreSQL", where: { database: DATABASE, schema }, schema });
  } else context.print("PostgreSQL rows skipped: set TALEFORGE_TEST_DATABASE_URL to measure them.");
  const rows: string[][] = [];
  for (const store of stores) {
    try {
      rows.push(...(await measure(context, store.label, store.where)));
    } finally {
      if (store.schema && DATABASE) {
        const client = new pg.Client({ connectionString: DATABASE });
        await client.connect();
        await client.query(`drop schema if exists ${store.schema} cascade`);
        await client.end();
      }
    }
  }
  context.print(
    `A game of ${TURNS} turns on the at-cap world played over HTTP (one player, offline narrator, real sandbox); rewinds to random turns through POST /games/:id/history/rewind (each followed by a switch back to the first story); ${BRANCHES} branches of 2 turns for the listing. Bytes are what the turns table's columns hold (SQLite: stored lengths; PostgreSQL: pg_column_size, after its lz4 compression).`,
  );
  context.print();
  context.print(formatTable(["Store", "Figure", "Measured", "Target"], rows));
}

async function measure(
  context: BenchContext,
  label: string,
  where: Parameters<typeof openStore>[0],
): Promise<string[][]> {
  const world = generateWorld(1);
  const open = await openStore(where);
  const sandbox = createSandbox();
  const server = await createServer({
    store: open,
    scripts: sandbox,
    log: createLogger({ level: "error", format: "json", destination: process.stderr }),
    narrator: (w, game) => createOfflineProvider(w, { gameMode: game.gameMode }),
    perMinute: 1e9,
    perAddressPerMinute: 1e9,
    actionsPerMinute: 1e9,
    worldLimit: 64 * 1024 * 1024,
    uploads: { open: true, perUploader: 1_000_000 },
  });
  try {
    const url = await server.app.listen({ host: "127.0.0.1", port: 0 });
    const hash = (await call(url, "POST", "/worlds", undefined, JSON.stringify(world))).hash as string;
    const created = await call(url, "POST", "/games", undefined, { world: hash, seed: 7 });
    const host = created.hostToken as string;
    const id = created.id as string;
    const premade = (world as { premadeCharacters?: { name: string }[] }).premadeCharacters?.[0]?.name;
    const joined = await call(url, "POST", "/games/join", undefined, {
      invite: created.invite,
      character: premade ? { premade } : { name: "Ada" },
    });
    await call(url, "POST", `/games/${id}/start`, host);
    const tickOf = async () => (await call(url, "GET", `/games/${id}`, host)).tick as number;
    while ((await tickOf()) < 0) await new Promise((r) => setTimeout(r, 5));
    const locations = Object.keys((world as { locations: Record<string, unknown> }).locations);
    const progress = context.progress(`History in the server (${label}): ${TURNS} at-cap turns`, TURNS);
    const playTurn = async (text: string) => {
      const before = await tickOf();
      await call(url, "POST", `/games/${id}/actions`, joined.token, {
        text,
        idempotencyKey: crypto.randomUUID(),
      });
      while ((await tickOf()) === before) await new Promise((r) => setTimeout(r, 2));
    };
    for (let t = 1; t <= TURNS; t++) {
      const place = t % 7 === 0 ? locations[t % locations.length] : undefined;
      await playTurn(place ? `I travel to ${place}.` : ACTIONS[t % ACTIONS.length]!);
      progress.tick();
    }
    progress.stop();
    const mainTip = (await call(url, "GET", `/games/${id}/history/branches`, host)).head as number;

    // Storage: every turn row's bytes, before any branch.
    const bytes = await turnBytes(open.db, id, "database" in where);

    const pick = picker(11);
    const runs = Math.max(context.runs, 21);
    const rewinds: number[] = [];
    const switches: number[] = [];
    for (let i = 0; i < runs; i++) {
      const tick = pick(TURNS - 1);
      const start = performance.now();
      await call(url, "POST", `/games/${id}/history/rewind`, host, { tick });
      rewinds.push(performance.now() - start);
      const back = performance.now();
      await call(url, "POST", `/games/${id}/history/switch`, host, { branch: mainTip });
      switches.push(performance.now() - back);
    }

    // Branches: rewinds to random turns, two turns each, then the list and a diff of every tip with the head.
    for (let b = 0; b < BRANCHES; b++) {
      if (b > 0) await call(url, "POST", `/games/${id}/history/switch`, host, { branch: mainTip });
      await call(url, "POST", `/games/${id}/history/rewind`, host, { tick: 1 + pick(TURNS - 2) });
      for (let t = 0; t < 2; t++) await playTurn(ACTIONS[(b + t) % ACTIONS.length]!);
    }
    const listing: number[] = [];
    const listOnly: number[] = [];
    let branchCount = 0;
    for (let i = 0; i < Math.min(runs, 11); i++) {
      const start = performance.now();
      const view = await call(url, "GET", `/games/${id}/history/branches`, host);
      listOnly.push(performance.now() - start);
      branchCount = view.branches.length;
      for (const branch of view.branches as { tip: number; current: boolean }[])
        if (!branch.current)
          await call(url, "GET", `/games/${id}/history/diff?a=${branch.tip}&b=${view.head}`, host);
      listing.push(performance.now() - start);
    }
    return [
      [label, "Rewind route, median", `${median(rewinds).toFixed(1)} ms`, `${TARGET_REWIND_MS} ms`],
      [label, "Rewind route, p99", `${p99(rewinds).toFixed(1)} ms`, `${TARGET_REWIND_MS} ms`],
      [label, "Switch route back to the first story, median", `${median(switches).toFixed(1)} ms`, ""],
      [label, `List ${branchCount} branches, median`, `${median(listOnly).toFixed(1)} ms`, ""],
      [label, `List them and diff each with the head, median`, `${median(listing).toFixed(1)} ms`, ""],
      [label, "Turns table per turn (all columns)", kb(bytes.all / (TURNS + 1)), ""],
      [label, "of which the state (a whole save)", kb(bytes.state / (TURNS + 1)), ""],
      [label, "of which the trace", kb(bytes.trace / (TURNS + 1)), ""],
      [label, "of which the cassette entries", kb(bytes.cassette / (TURNS + 1)), ""],
    ];
  } finally {
    await server.close(10_000);
    await sandbox.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The bytes the game's turn rows hold, by column group. */
async function turnBytes(
  db: Awaited<ReturnType<typeof openStore>>["db"],
  game: string,
  postgres: boolean,
): Promise<{ all: number; state: number; trace: number; cassette: number }> {
  const size = (column: string) =>
    postgres
      ? `coalesce(sum(pg_column_size(${column})), 0)`
      : `coalesce(sum(length(cast(${column} as blob))), 0)`;
  const all = ["state", "inputs", "cassette", "trace", "result", "narration"].map(size).join(" + ");
  const query = `select ${all} as "all", ${size("state")} as "state", ${size("trace")} as "trace", ${size("cassette")} as "cassette" from turns where game_id = '${game.replace(/'/g, "")}'`;
  const result = await sql
    .raw<{ all: number; state: number; trace: number; cassette: number }>(query)
    .execute(db);
  const row = result.rows[0]!;
  return {
    all: Number(row.all),
    state: Number(row.state),
    trace: Number(row.trace),
    cassette: Number(row.cassette),
  };
}
