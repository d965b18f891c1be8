/**
 * One `taleforge serve` process for the serve benchmark: the store from
 * TALEFORGE_BENCH_STORE, the offline narrator, JSON logs on stdout (the parent
 * reads each step's duration from them). Talks to the parent over IPC: sends
 * its URL; answers "memory" with its memory use after a full GC (`children`: its sandbox processes' resident set), "cpu" with its CPU time and its event loop's delay and GC pauses since the last "cpu", "queries" with the PostgreSQL queries it sent so far (by SQL text); "stop" closes it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { type IntervalHistogram, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
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
  // Every client of the benchmark connects from this machine: one address for hundreds of streams.
  streams: { perToken: 1000, perAddress: 100_000 },
  ...(process.env.TALEFORGE_BENCH_SERVE_MAX_STEPS
    ? { maxSteps: Number(process.env.TALEFORGE_BENCH_SERVE_MAX_STEPS) }
    : {}),
});
/**
 * The event loop's delay (a histogram sampled every 10 ms) and the garbage collector's pauses, since the
 * last "cpu" message: what a step waited for besides its own work, measured inside the process.
 */
let loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const gc = { ms: 0, count: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.ms += entry.duration;
    gc.count++;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });
function pauses() {
  const out = {
    loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    gc: { ...gc },
  };
  loop.disable();
  loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  Object.assign(gc, { ms: 0, count: 0, maxMs: 0 });
  return out;
}

const url = await server.app.listen({ host: "127.0.0.1", port: 0 });
process.send!({ url });
process.on("message", (message) => {
  if (message === "memory") {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: { ...process.memoryUsage(), children: childrenRss() } });
  } else if (message === "cpu") {
    process.send!({ cpu: { own: process.cpuUsage(), children: childrenCpu(), ...pauses() } });
  } else if (message === "queries") {
    process.send!({ queries: Object.fromEntries(queries) });
  } else if (message === "stop") {
    void server
      .close(10_000)
      .then(() => sandbox.close())
      .finally(() => process.exit(0));
  }
});
