/**
 * One `taleforge serve` process for the serve benchmark: the store from
 * TALEFORGE_BENCH_STORE, the offline narrator, JSON logs on stdout (the parent
 * reads each step's duration from them). Talks to the parent over IPC: sends
 * its URL; answers "memory" with its memory use after a full GC (`children`: its sandbox processes' resident set, `childrenOwn`: their private part of it), "cpu" with its CPU time and its event loop's delay and GC pauses since the last "cpu", "queries" with the PostgreSQL queries it sent so far (by SQL text); "stop" closes it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { type IntervalHistogram, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import pg from "pg";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { createServer } from "../src/server/app.ts";
import { createLogger } from "../src/server/logger.ts";
import { DEFAULT_MAX_STEPS } from "../src/server/runner.ts";
import { openStore } from "../src/server/store/open.ts";

/** TALEFORGE_BENCH_SERVE_MAX_STEPS: the process's step slots (--max-steps); the server's default without it. */
const MAX_STEPS = Number(process.env.TALEFORGE_BENCH_SERVE_MAX_STEPS || DEFAULT_MAX_STEPS);

import { SqliteThread } from "../src/server/store/sqlite-thread.ts";

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

/**
 * Memory (bytes) of this process's children, from /proc (Linux; 0 elsewhere): their resident set, and
 * their own part of it (private pages, from smaps_rollup): the rest is mostly the Node executable's
 * pages, which they share with this process and which a machine holds once.
 */
function childrenMemory(): { rss: number; own: number } {
  const total = { rss: 0, own: 0 };
  const kb = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0) * 1024;
  for (const { id } of children()) {
    try {
      const rss = kb(readFileSync(`/proc/${id}/status`, "utf8"), "VmRSS");
      total.rss += rss;
      let rollup: string | null = null;
      try {
        rollup = readFileSync(`/proc/${id}/smaps_rollup`, "utf8");
      } catch {
        // No smaps_rollup (kernels before 4.14): count the whole resident set as its own.
      }
      total.own += rollup === null ? rss : kb(rollup, "Private_Clean") + kb(rollup, "Private_Dirty");
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

/** The same for SQLite: each statement asked of the store's thread (a select shared by several callers counts once each). */
const sqliteQuery = SqliteThread.prototype.query;
SqliteThread.prototype.query = function (this: SqliteThread, sql, parameters, how) {
  queries.set(sql, (queries.get(sql) ?? 0) + 1);
  return sqliteQuery.call(this, sql, parameters, how);
};

/** NOTIFY messages this process received (every process hears every game's). */
let notifications = 0;
const emit = pg.Client.prototype.emit;
pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
  if (event === "notification") notifications++;
  return emit.call(this, event, ...args);
} as typeof emit;

/** CPU time (microseconds) of this process's threads so far, by thread name (the main thread: "main"). */
function threads(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const id of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
      const name =
        Number(id) === process.pid ? "main" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = (out[name] ?? 0) + ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6;
    }
  } catch {
    // Not Linux.
  }
  return out;
}

/** This process's context switches so far (Linux; zeros elsewhere). */
function switches(): { voluntary: number; involuntary: number } {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    return {
      voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    };
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
}

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
  // The benchmark uploads its worlds without a token (an upload needs one by default).
  uploads: { open: true, perUploader: 1_000_000 },
  // It imports its idle games ten at a time: more than a 2-core machine's one work thread queues by default.
  workers: { queue: 1000 },
  maxSteps: MAX_STEPS,
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

/**
 * A CPU profile of the process over the turns only ("profile-start", then { profileTo: file }): the
 * benchmark's TALEFORGE_BENCH_SERVE_PROFILE, so that what a turn costs is not mixed with the setup.
 */
const profiler = {
  session: null as Session | null,
  async start() {
    this.session = new Session();
    this.session.connect();
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.setSamplingInterval", { interval: 200 });
    await this.session.post("Profiler.start");
  },
  async stop(file: string) {
    const session = this.session;
    if (!session) return;
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    this.session = null;
  },
};

const url = await server.app.listen({ host: "127.0.0.1", port: 0 });
// As `taleforge serve` does (src/server/run.ts): the script process starts once the server listens,
// not at the first turn's script (its start would otherwise count in the first turns measured).
sandbox.warm();
// Its step slots too, for the benchmark's "slots busy" (the benchmark does not load the server's modules).
process.send!({ url, maxSteps: MAX_STEPS });
process.on("message", (message) => {
  if (message === "memory") {
    (globalThis as { gc?: () => void }).gc?.();
    const kids = childrenMemory();
    process.send!({ memory: { ...process.memoryUsage(), children: kids.rss, childrenOwn: kids.own } });
  } else if (message === "cpu") {
    process.send!({
      cpu: {
        own: process.cpuUsage(),
        children: childrenCpu(),
        switches: switches(),
        threads: threads(),
        notifications,
        ...pauses(),
      },
    });
  } else if (message === "profile-start") {
    void profiler.start().then(() => process.send!({ profiling: true }));
  } else if (typeof message === "object" && message !== null && "profileTo" in message) {
    void profiler
      .stop((message as { profileTo: string }).profileTo)
      .then(() => process.send!({ profiled: true }));
  } else if (message === "queries") {
    process.send!({ queries: Object.fromEntries(queries) });
  } else if (message === "stop") {
    void server
      .close(10_000)
      .then(() => sandbox.close())
      .finally(() => process.exit(0));
  }
});
