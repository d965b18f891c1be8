import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { createServer, type Server } from "../src/server/app.ts";
import { createLogger } from "../src/server/logger.ts";
import { openStore, type StoreOptions } from "../src/server/store/open.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { collectGarbage, median, ms, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/** Targets from issue 11, printed next to the figures (never asserted). */
const TARGET_P99_MS = 50;
const ACTIVE_GAMES = 50;
const TURNS = 4;
const IDLE_GAMES = 200;
const LISTENERS = 100;
const DATABASE = process.env.TALEFORGE_TEST_DATABASE_URL || process.env.TALEFORGE_BENCH_DATABASE_URL;

const bench: BenchModule = {
  name: "serve",
  title: `Server: ${ACTIVE_GAMES} active games over HTTP (offline narrator), idle games, SSE fan-out`,
  run,
};
export default bench;

interface Setup {
  label: string;
  servers: Server[];
  urls: string[];
  durations: number[];
  close(): Promise<void>;
}

async function setup(label: string, where: StoreOptions, count: number): Promise<Setup> {
  const durations: number[] = [];
  // The step log lines carry each turn's duration (engine, narrator and store commit).
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) {
        if (!line.includes("step committed")) continue;
        const entry = JSON.parse(line) as { kind: string; durationMs: number };
        if (entry.kind === "turn") durations.push(entry.durationMs);
      }
      done();
    },
  });
  const sandbox = createSandbox();
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const server = await createServer({
      store: await openStore(where),
      scripts: sandbox,
      log: createLogger({ level: "info", destination: sink }),
      narrator: (world, game) => createOfflineProvider(world, { gameMode: game.gameMode }),
      perMinute: 1e9,
      actionsPerMinute: 1e9,
      streams: { perToken: 1000 },
    });
    urls.push(await server.app.listen({ host: "127.0.0.1", port: 0 }));
    servers.push(server);
  }
  return {
    label,
    servers,
    urls,
    durations,
    async close() {
      for (const s of servers) await s.close();
      await sandbox.close();
    },
  };
}

async function call(url: string, method: string, path: string, token?: string, body?: unknown, raw?: string) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined || raw !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function newGame(url: string, hash: string, start: boolean) {
  const created = await call(url, "POST", "/games", undefined, { world: hash, seed: 1 });
  const joined = await call(url, "POST", "/games/join", undefined, {
    invite: created.invite,
    character: { name: "Ann" },
  });
  if (start) await call(url, "POST", `/games/${created.id}/start`, created.hostToken as string);
  return { id: created.id as string, host: created.hostToken as string, player: joined.token as string };
}

async function activeGames(s: Setup, world: string) {
  const hash = (await call(s.urls[0]!, "POST", "/worlds", undefined, undefined, world)).hash as string;
  const games = [];
  for (let i = 0; i < ACTIVE_GAMES; i++) games.push(await newGame(s.urls[i % s.urls.length]!, hash, true));
  const started = performance.now();
  for (let turn = 1; turn <= TURNS; turn++) {
    await Promise.all(
      games.map(async (g, i) => {
        const url = s.urls[(i + turn) % s.urls.length]!;
        await call(url, "POST", `/games/${g.id}/actions`, g.player, {
          text: "walk to the Gutted Eel",
          idempotencyKey: `t${turn}`,
        });
        for (;;) {
          const game = await call(url, "GET", `/games/${g.id}`, g.player);
          if ((game.tick as number) >= turn) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return { hash, turnsPerSecond: (ACTIVE_GAMES * TURNS) / seconds };
}

async function run(context: BenchContext): Promise<void> {
  const world = readFileSync(join(context.root, "examples/harbor.world.json"), "utf8");
  const rows: string[][] = [];
  const configs: { label: string; where: () => StoreOptions; count: number }[] = [
    {
      label: "1 server, SQLite",
      where: () => ({ data: mkdtempSync(join(context.workDir, "serve-")) }),
      count: 1,
    },
  ];
  if (DATABASE) {
    const schema = () => `tf_bench_${randomBytes(4).toString("hex")}`;
    configs.push({
      label: "1 server, PostgreSQL",
      where: () => ({ database: DATABASE, schema: schema() }),
      count: 1,
    });
    let shared: StoreOptions | undefined;
    configs.push({
      label: "2 servers (one Node process), PostgreSQL",
      where: () => {
        shared ??= { database: DATABASE, schema: schema() };
        return shared;
      },
      count: 2,
    });
  } else context.print("PostgreSQL rows skipped: set TALEFORGE_TEST_DATABASE_URL to measure them.");
  let memory: { idle: number; fanOut: number } | undefined;
  for (const config of configs) {
    const where = config.where();
    const s = await setup(config.label, where, config.count);
    try {
      const { hash, turnsPerSecond } = await activeGames(s, world);
      rows.push([config.label, turnsPerSecond.toFixed(1), ms(median(s.durations)), ms(p99(s.durations))]);
      if (!memory) memory = await idleAndFanOut(s, hash);
    } finally {
      await s.close();
      if (where.database && where.schema) {
        const pg = (await import("pg")).default;
        const client = new pg.Client({ connectionString: where.database });
        await client.connect();
        await client.query(`drop schema if exists ${where.schema} cascade`);
        await client.end();
      }
    }
  }
  context.print(formatTable(["Store", "turns/s", "turn p50", "turn p99"], rows));
  context.print(
    `Turn latency is one step inside the server (restore, engine, offline narrator, commit), ${ACTIVE_GAMES} games x ${TURNS} turns at once; target p99 < ${TARGET_P99_MS} ms.`,
  );
  if (memory)
    context.print(
      `Heap per idle game (${IDLE_GAMES} started games, SQLite): ${(memory.idle / 1024).toFixed(1)} KiB. SSE fan-out: a turn reached ${LISTENERS} listeners in ${ms(memory.fanOut)}.`,
    );
  rmSync(join(context.workDir), { recursive: true, force: true });
}

async function idleAndFanOut(s: Setup, hash: string) {
  const url = s.urls[0]!;
  collectGarbage?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < IDLE_GAMES; i++) await newGame(url, hash, true);
  collectGarbage?.();
  const idle = (process.memoryUsage().heapUsed - before) / IDLE_GAMES;

  const game = await newGame(url, hash, true);
  const controllers: AbortController[] = [];
  const arrived: Promise<number>[] = [];
  for (let i = 0; i < LISTENERS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${url}/games/${game.id}/events`, {
      headers: { authorization: `Bearer ${game.player}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    arrived.push(
      (async () => {
        let text = "";
        for (;;) {
          const { value } = await reader.read();
          text += new TextDecoder().decode(value);
          if (/event: turn\ndata: \{"seq":1/.test(text)) return performance.now();
        }
      })(),
    );
  }
  const sent = performance.now();
  await call(url, "POST", `/games/${game.id}/actions`, game.player, {
    text: "look around",
    idempotencyKey: "x",
  });
  const times = await Promise.all(arrived);
  for (const c of controllers) c.abort();
  return { idle, fanOut: Math.max(...times) - sent };
}
