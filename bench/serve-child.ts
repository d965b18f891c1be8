/**
 * One `taleforge serve` process for the serve benchmark: the store from
 * TALEFORGE_BENCH_STORE, the offline narrator, JSON logs on stdout (the parent
 * reads each step's duration from them). Talks to the parent over IPC: sends
 * its URL; answers "memory" with its memory use after a full GC (`children`: its sandbox processes' resident set), "cpu" with its CPU time, "queries" with the PostgreSQL queries it sent so far (by SQL text); "stop" closes it.
 */
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { createServer } from "../src/server/app.ts";
import { createLogger } from "../src/server/logger.ts";
import { openStore } from "../src/server/store/open.ts";

/** Each child process of this one (the sandbox's script processes): its /proc/<id>/stat fields after the name. */
function children(): { id: string; fields: string[] }[] {
  const found: { id: string; fields: string[] }[] = [];
  let ids: string[] = [];
  try {
    ids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const id of ids) {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid) found.push({ id, fields });
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** CPU time (microseconds) of this process's children, from /proc (Linux). */
function childrenCpu(): number {
  return children().reduce(
    (total, c) => total + ((Number(c.fields[11]) + Number(c.fields[12])) / 100) * 1e6,
    0,
  );
}

/** Resident set (bytes) of this process's children, from /proc (Linux; 0 elsewhere). */
function childrenRss(): number {
  let total = 0;
  for (const { id } of children()) {
    try {
      total += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * Every query this process sends PostgreSQL (the store's pool and the bus's connection), counted by its
 * SQL text: the benchmark divides them by the turns played (round trips per turn, independent of the
 * load). A count only: the query itself goes through unchanged.
 */
const queries = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = typeof first === "string" ? first : (first?.text ?? "?");
  queries.set(text, (queries.get(text) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const store = await openStore(JSON.parse(process.env.TALEFORGE_BENCH_STORE ?? "{}"));
const sandbox = createSandbox();
const server = await createServer({
  store,
  scripts: sandbox,
  log: createLogger({ level: "info", format: "json", destination: process.stdout }),
  narrator: (world, game) => createOfflineProvider(world, { gameMode: game.gameMode }),
  perMinute: 1e9,
  actionsPerMinute: 1e9,
  streams: { perToken: 1000 },
  ...(process.env.TALEFORGE_BENCH_SERVE_MAX_STEPS
    ? { maxSteps: Number(process.env.TALEFORGE_BENCH_SERVE_MAX_STEPS) }
    : {}),
});
const url = await server.app.listen({ host: "127.0.0.1", port: 0 });
process.send!({ url });
process.on("message", (message) => {
  if (message === "memory") {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: { ...process.memoryUsage(), children: childrenRss() } });
  } else if (message === "cpu") {
    process.send!({ cpu: { own: process.cpuUsage(), children: childrenCpu() } });
  } else if (message === "queries") {
    process.send!({ queries: Object.fromEntries(queries) });
  } else if (message === "stop") {
    void server
      .close(10_000)
      .then(() => sandbox.close())
      .finally(() => process.exit(0));
  }
});
