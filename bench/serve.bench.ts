import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { type CpuBudget, cpuBudget } from "./cpu-budget.ts";
import { median, ms, p99 } from "./measure.ts";
import { type Breakdown, breakdownOf, PARTS } from "./serve-breakdown.ts";
import { bundleServeChild } from "./serve-bundle.ts";
import { send, stream } from "./serve-client.ts";
import { LEGS, machineTicks, pathOf } from "./serve-path.ts";
import { measureRecovery } from "./serve-recovery.ts";
import { measureStart } from "./serve-start.ts";
import { formatTable } from "./table.ts";

/** Targets from issue 11, printed next to the figures (never asserted). */
const TARGET_P99_MS = 50;
const TARGET_IDLE_MB = 200;
const TARGET_SCALE = 1.6;
const ACTIVE_GAMES = Number(process.env.TALEFORGE_BENCH_SERVE_ACTIVE ?? "50");
/** TALEFORGE_BENCH_SERVE_TURNS=n: the turns measured (each of the active games plays them). */
const TURNS = Number(process.env.TALEFORGE_BENCH_SERVE_TURNS ?? "8");
/**
 * TALEFORGE_BENCH_SERVE_WARMUP=n: each level's active games first play n turns that are not measured
 * (default 15: a fresh process's first turns measure V8 compiling the server's and the script
 * process's code, not a turn; the script process still spends most of a call in TurboFan some 500
 * calls in (docs/benchmarks.md, issue 38 round 6), so 2 turns of 50 games measured its warm-up).
 */
const WARMUP = Number(process.env.TALEFORGE_BENCH_SERVE_WARMUP ?? "15");
/** TALEFORGE_BENCH_SERVE_IDLE=10 (a comma list) measures fewer levels, for a quick look. */
const IDLE_LEVELS = (process.env.TALEFORGE_BENCH_SERVE_IDLE ?? "10,100,1000").split(",").map(Number);
const LISTENERS = 100;
/** How long the memory measure waits at most for an idle server's resident set to settle. */
const SETTLE_S = Number(process.env.TALEFORGE_BENCH_SERVE_SETTLE_S ?? "45");
const SETTLE_MIN_S = 20;
const DATABASE = process.env.TALEFORGE_TEST_DATABASE_URL || process.env.TALEFORGE_BENCH_DATABASE_URL;
/** TALEFORGE_BENCH_SERVE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": extra node options for the server processes. */
const NODE_ARGS = (process.env.TALEFORGE_BENCH_SERVE_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
/** TALEFORGE_BENCH_SERVE_QUERIES=1 prints the store's queries per turn by SQL text (PostgreSQL's, or those asked of SQLite's thread). */
const SHOW_QUERIES = process.env.TALEFORGE_BENCH_SERVE_QUERIES === "1";
/**
 * TALEFORGE_BENCH_SERVE_PROFILE=<folder>: a CPU profile of each server process over the turns only (not
 * the setup), written there as <setup>-<idle>-p<process>.cpuprofile.
 */
const PROFILE = process.env.TALEFORGE_BENCH_SERVE_PROFILE || null;
/**
 * TALEFORGE_BENCH_SERVE_STORES=pg1,pg2 (of start, sqlite, pg1, pg2, recovery) measures only those setups;
 * `start` is the start-up figures (serve-start.ts), `recovery` the wait of due turns after kill -9
 * (serve-recovery.ts, on SQLite and, with a database, two PostgreSQL processes).
 */
const STORES = (process.env.TALEFORGE_BENCH_SERVE_STORES ?? "start,sqlite,pg1,pg2,recovery").split(",");
/**
 * TALEFORGE_BENCH_SERVE_CPUS=0.5: each server process (with its script process) gets that many cores of
 * CPU time in a control group of its own, as on a machine of its own (see cpu-budget.ts). Unset: none.
 */
const CPUS = process.env.TALEFORGE_BENCH_SERVE_CPUS ? Number(process.env.TALEFORGE_BENCH_SERVE_CPUS) : null;
/** TALEFORGE_BENCH_SERVE_BREAKDOWN=0 skips the profiled pass that says where a turn's CPU goes (serve-breakdown.ts). */
const BREAKDOWN = process.env.TALEFORGE_BENCH_SERVE_BREAKDOWN !== "0";
const CHILD = fileURLToPath(new URL("./serve-child.ts", import.meta.url));

const bench: BenchModule = {
  name: "serve",
  title: `Server: start-up (node and npx); ${IDLE_LEVELS.join(", ")} idle games (imported saves) plus ${ACTIVE_GAMES} active over HTTP (offline narrator); memory; SSE fan-out`,
  run,
};
export default bench;

/** A step's phases as its step log gives them (see Runner.claimed). */
const PHASES = ["restoreMs", "startMs", "runMs", "saveMs", "commitMs"] as const;
type Step = {
  durationMs: number;
  waitMs: number;
  /** From taking its slot to its start: the claim (0 from a server without the field). */
  claimMs: number;
  phases: Partial<Record<(typeof PHASES)[number], number>>;
  /** Its game and tick, and when it was logged (right after its commit: epoch ms, pino's `time`). */
  game: string;
  tick: number;
  at: number;
};
/** A server process's context switches and the NOTIFY messages it received, so far. */
type Counts = {
  switches: { voluntary: number; involuntary: number };
  notifications: number;
  /** CPU time (µs) by thread name: "main" (the event loop), V8's workers (compiler, GC), libuv's pool. */
  threads: Record<string, number>;
};
type Pauses = {
  loop: { p50: number; p99: number; max: number };
  gc: { ms: number; count: number; maxMs: number };
};

interface Proc {
  url: string;
  /** Its step slots (--max-steps). */
  maxSteps: number;
  child: ChildProcess;
  /** Each turn step's own time, its phases and its wait for a step slot (ms), from the process's step log lines. */
  steps: Step[];
  /**
   * Memory use after a full GC; `children`: the resident set of its sandbox processes, `childrenOwn`: their
   * private pages (what they add beside this process: the Node executable's pages are shared).
   */
  memory(): Promise<NodeJS.MemoryUsage & { children: number; childrenOwn: number }>;
  /**
   * CPU time so far (user + system, microseconds): the process's own and its sandbox children's; and,
   * since the last call, its event loop's delay (ms) and its garbage collector's pauses.
   */
  cpu(): Promise<{ own: number; system: number; children: number } & Counts & Pauses>;
  /** The PostgreSQL queries the process sent so far, by SQL text. */
  queries(): Promise<Record<string, number>>;
  /** Starts a CPU profile; `profileTo` stops it and writes it to `file`. */
  profile(): Promise<void>;
  profileTo(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** The recovery figures (serve-recovery.ts), on the bundled server as the other rows use. */
async function recovery(context: BenchContext): Promise<void> {
  const world = readFileSync(join(context.root, "examples/harbor.world.json"), "utf8");
  const bundle = process.env.TALEFORGE_BENCH_SERVE_TSX ? null : await bundleServeChild(context.root);
  await measureRecovery(context, world, DATABASE, bundle);
}

/** A real server process (serve-child.ts) on `where`. */
function start(where: StoreWhere, bundle: string | null, budget: CpuBudget | null): Promise<Proc> {
  // The servers' PostgreSQL connections carry the schema's name, so that their backends' CPU time
  // can be told apart from other users of the same database server.
  const store =
    "database" in where
      ? { ...where, database: withParam(where.database, "application_name", where.schema) }
      : where;
  const child = spawn(
    process.execPath,
    ["--expose-gc", ...NODE_ARGS, ...(bundle ? [bundle] : ["--import", "tsx", CHILD])],
    {
      env: { ...process.env, TALEFORGE_BENCH_STORE: JSON.stringify(store) },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  // Before it listens, so the script process it starts then is in the same group.
  if (budget && child.pid !== undefined) budget.confine(child.pid);
  const steps: Step[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('"step committed"')) continue;
      const entry = JSON.parse(line) as {
        kind: string;
        durationMs: number;
        waitMs?: number;
        claimMs?: number;
        phases?: Step["phases"];
        game: string;
        tick: number;
        time: number;
      };
      if (entry.kind === "turn")
        steps.push({
          durationMs: entry.durationMs,
          waitMs: entry.waitMs ?? 0,
          claimMs: entry.claimMs ?? 0,
          phases: entry.phases ?? {},
          game: entry.game,
          tick: entry.tick,
          at: entry.time,
        });
    }
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve) => {
      const on = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off("message", on);
        resolve(message[key] as T);
      };
      child.on("message", on);
    });
  const maxSteps = next<number>("maxSteps");
  return next<string>("url").then(async (url) => ({
    url,
    maxSteps: await maxSteps,
    child,
    steps,
    cpu() {
      const answer = next<{ own: NodeJS.CpuUsage; children: number } & Counts & Pauses>("cpu");
      child.send("cpu");
      return answer.then((u) => ({ ...u, own: u.own.user + u.own.system, system: u.own.system }));
    },
    queries() {
      const answer = next<Record<string, number>>("queries");
      child.send("queries");
      return answer;
    },
    async profile() {
      const answer = next<boolean>("profiling");
      child.send("profile-start");
      await answer;
    },
    async profileTo(file: string) {
      const answer = next<boolean>("profiled");
      child.send({ profileTo: file });
      await answer;
    },
    memory() {
      const answer = next<NodeJS.MemoryUsage & { children: number; childrenOwn: number }>("memory");
      child.send("memory");
      return answer;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("stop");
      await exited;
    },
  }));
}

async function call(url: string, method: string, path: string, token?: string, body?: unknown, raw?: string) {
  const { status, answer } = await send(
    url,
    method,
    path,
    token,
    raw !== undefined ? raw : body !== undefined ? JSON.stringify(body) : undefined,
  );
  // A refused call fails the benchmark here, with the server's answer, rather than as a stream that never sees its turn.
  if (status < 200 || status > 299 || answer === null)
    throw new Error(`${method} ${path}: ${status} ${JSON.stringify(answer).slice(0, 300)}`);
  return answer;
}

async function newGame(url: string, hash: string) {
  const created = await call(url, "POST", "/games", undefined, { world: hash, seed: 1 });
  const joined = await call(url, "POST", "/games/join", undefined, {
    invite: created.invite,
    character: { name: "Ann" },
  });
  await call(url, "POST", `/games/${created.id}/start`, created.hostToken as string);
  return { id: created.id as string, host: created.hostToken as string, player: joined.token as string };
}

/**
 * `count` idle games: imported from one started game's save (a running game with its state, waiting for
 * its players), which costs the server what an idle game costs without narrating `count` openings.
 */
async function makeIdle(procs: Proc[], hash: string, save: string, count: number) {
  for (let i = 0; i < count; i += 10)
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) =>
        call(procs[(i + j) % procs.length]!.url, "POST", "/games/import", undefined, { world: hash, save }),
      ),
    );
}

/** `count` more started games (a few at a time), spread over the processes. */
async function makeGames(procs: Proc[], hash: string, count: number) {
  const games: Awaited<ReturnType<typeof newGame>>[] = [];
  for (let i = 0; i < count; i += 10)
    games.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, (_, j) =>
          newGame(procs[(i + j) % procs.length]!.url, hash),
        ),
      )),
    );
  return games;
}

const TURN_EVENTS = new Set(["turn", "turn-failed"]);

/**
 * Follows one game's event stream as a player's client does: `wait(tick)` resolves when the turn
 * event of that tick arrives (rejects on a turn-failed event), answering the time it arrived.
 */

async function follow(url: string, game: { id: string; player: string }) {
  const arrived = new Map<number, number>();
  const waiters = new Map<number, { resolve: (at: number) => void; reject: (error: Error) => void }>();
  let failure: Error | null = null;
  const { close } = await stream(
    url,
    `/games/${game.id}/events`,
    game.player,
    TURN_EVENTS,
    ({ event, data }) => {
      if (data === undefined) return;
      const { tick, message } = JSON.parse(data) as { tick: number; message?: string };
      if (event === "turn-failed") {
        failure = new Error(`turn ${tick} of ${game.id} failed: ${message}`);
        for (const w of waiters.values()) w.reject(failure);
        return;
      }
      const at = performance.now();
      arrived.set(tick, at);
      waiters.get(tick)?.resolve(at);
    },
  );
  return {
    wait(tick: number): Promise<number> {
      const at = arrived.get(tick);
      if (at !== undefined) return Promise.resolve(at);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiters.set(tick, { resolve, reject }));
    },
    close,
  };
}

/**
 * ACTIVE_GAMES fresh games play TURNS turns at once, each player's client following its game's event
 * stream (no polling): turns/s, each turn's end-to-end latency (the action sent to its turn event
 * received) and each step's own time from the servers' step logs.
 */
async function playActive(
  procs: Proc[],
  hash: string,
  where: StoreWhere,
  profileAs: string,
  profileDir: string | null = PROFILE,
) {
  const games = await makeGames(procs, hash, ACTIVE_GAMES);
  const streams = await Promise.all(games.map((g, i) => follow(procs[i % procs.length]!.url, g)));
  const endToEnd: number[] = [];
  /** Each measured turn from the client's side (performance.now() ms): sent, its POST answered, its turn event in. */
  const sides: { game: string; tick: number; sent: number; answered: number; arrived: number }[] = [];
  /** Each round's wall time (ms). */
  const rounds: number[] = [];
  /** One turn of every active game at once, each game's action to one process in turn. */
  const round = async (turn: number) => {
    const from = performance.now();
    await Promise.all(
      games.map(async (g, i) => {
        const url = procs[(i + turn) % procs.length]!.url;
        const sent = performance.now();
        let answered = 0;
        const answer = call(url, "POST", `/games/${g.id}/actions`, g.player, {
          text: "walk to the Gutted Eel",
          idempotencyKey: `t${turn}`,
        }).then(() => {
          answered = performance.now();
        });
        const [, at] = await Promise.all([answer, streams[i]!.wait(turn)]);
        endToEnd.push(at - sent);
        sides.push({ game: g.id, tick: turn, sent, answered, arrived: at });
      }),
    );
    rounds.push(performance.now() - from);
  };
  // Not measured: the processes' first turns (the JIT, the pools' connections and their prepared
  // statements, the script process's isolates), which each process pays once.
  for (let turn = 1; turn <= WARMUP; turn++) await round(turn);
  endToEnd.length = 0;
  sides.length = 0;
  rounds.length = 0;
  for (const p of procs) p.steps.length = 0;
  const cpuBefore = await Promise.all(procs.map((p) => p.cpu()));
  const queriesBefore = await Promise.all(procs.map((p) => p.queries()));
  const clientBefore = process.cpuUsage();
  const pgBefore = await backendsCpu(where);
  const machineBefore = machineTicks();
  if (profileDir) await Promise.all(procs.map((p) => p.profile()));
  const started = performance.now();
  try {
    for (let turn = WARMUP + 1; turn <= WARMUP + TURNS; turn++) await round(turn);
  } finally {
    for (const s of streams) s.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
    await Promise.all(procs.map((p, i) => p.profileTo(join(profileDir, `${profileAs}-p${i}.cpuprofile`))));
  }
  const client = process.cpuUsage(clientBefore);
  const machineAfter = machineTicks();
  const pgAfter = await backendsCpu(where);
  const cpuAfter = await Promise.all(procs.map((p) => p.cpu()));
  const queriesAfter = await Promise.all(procs.map((p) => p.queries()));
  const steps = procs.flatMap((p) => p.steps);
  const own = steps.map((s) => s.durationMs);
  const turns = ACTIVE_GAMES * TURNS;
  // The slowest 1% of steps (at least one): the mean of each phase among them, to tell what makes the tail.
  const tail = [...steps]
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, Math.max(1, Math.ceil(steps.length / 100)));
  const phase = (list: Step[], name: (typeof PHASES)[number]) => list.map((s) => s.phases[name] ?? 0);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  // Summed over the processes, by SQL text.
  const queries = new Map<string, number>();
  queriesAfter.forEach((after, i) => {
    for (const [text, n] of Object.entries(after))
      queries.set(text, (queries.get(text) ?? 0) + n - (queriesBefore[i]![text] ?? 0));
  });
  const cpuOf = (i: number, key: "own" | "children") => cpuAfter[i]![key] - cpuBefore[i]![key];
  /** CPU time (ms) of this benchmark's processes over the turns: servers, sandboxes, PostgreSQL, client. */
  const benchCpuMs =
    (procs.reduce((a, _, i) => a + cpuOf(i, "own") + cpuOf(i, "children"), 0) +
      (pgBefore && pgAfter ? cpuSince(pgBefore, pgAfter) : 0) +
      client.user +
      client.system) /
    1000;
  return {
    path: pathOf(sides, steps),
    /** Mean wall time (ms) of a round (every active game's turn at once). */
    roundMs: mean(rounds),
    /** The step slots' busy share: the steps' claims and own time over the slots' time. */
    slotsBusy:
      steps.reduce((a, s) => a + s.claimMs + s.durationMs, 0) /
      (procs.reduce((a, p) => a + p.maxSteps, 0) * seconds * 1000),
    /** Cores' worth of CPU this benchmark's processes used over the turns, and the machine's busy share. */
    benchCores: benchCpuMs / (seconds * 1000),
    machineBusy:
      machineBefore && machineAfter
        ? (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total)
        : Number.NaN,
    phases: PHASES.map((name) => ({
      name,
      p50: median(phase(steps, name)),
      p99: p99(phase(steps, name)),
      tail: mean(phase(tail, name)),
    })),
    tailMs: mean(tail.map((s) => s.durationMs)),
    pauses: cpuAfter.map((c) => ({ loop: c.loop, gc: c.gc })),
    turnsPerSecond: turns / seconds,
    own: { p50: median(own), p99: p99(own) },
    endToEnd: { p50: median(endToEnd), p99: p99(endToEnd) },
    queued: { p50: median(steps.map((s) => s.waitMs)), p99: p99(steps.map((s) => s.waitMs)) },
    /** CPU time of the server processes (user + system) per turn, in ms: independent of the load. */
    cpuPerTurn: cpuAfter.map((after, i) => (after.own - cpuBefore[i]!.own) / 1000 / turns),
    /** Per process and turn: its system CPU (ms), its context switches and the NOTIFY messages it received. */
    perProcess: cpuAfter.map((after, i) => {
      const before = cpuBefore[i]!;
      return {
        systemMs: (after.system - before.system) / 1000 / turns,
        voluntary: (after.switches.voluntary - before.switches.voluntary) / turns,
        involuntary: (after.switches.involuntary - before.switches.involuntary) / turns,
        notifications: (after.notifications - before.notifications) / turns,
        threads: Object.fromEntries(
          Object.entries(after.threads).map(([name, us]) => [
            name,
            (us - (before.threads[name] ?? 0)) / 1000 / turns,
          ]),
        ),
      };
    }),
    sandboxCpuPerTurn: cpuAfter.map((after, i) => (after.children - cpuBefore[i]!.children) / 1000 / turns),
    clientCpuPerTurn: (client.user + client.system) / 1000 / turns,
    /** PostgreSQL backends serving the servers (those alive at the end), ms per turn; null on SQLite. */
    pgCpuPerTurn: pgBefore && pgAfter ? cpuSince(pgBefore, pgAfter) / 1000 / turns : null,
    /** PostgreSQL queries (round trips) the servers sent per turn, by SQL text; empty on SQLite. */
    queriesPerTurn: [...queries].map(([text, n]) => ({ text, n: n / turns })).filter((q) => q.n > 0),
  };
}

/** One turn reaching LISTENERS event streams (spread over the processes): ms from the action to the last. */
async function fanOut(procs: Proc[], hash: string): Promise<number> {
  const [game] = await makeGames(procs.slice(0, 1), hash, 1);
  const controllers: AbortController[] = [];
  const arrived: Promise<number>[] = [];
  for (let i = 0; i < LISTENERS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${procs[i % procs.length]!.url}/games/${game!.id}/events`, {
      headers: { authorization: `Bearer ${game!.player}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    arrived.push(
      (async () => {
        let text = "";
        for (;;) {
          const { value } = await reader.read();
          text += decoder.decode(value);
          if (/event: turn\ndata: \{"seq":1/.test(text)) return performance.now();
        }
      })(),
    );
  }
  const sent = performance.now();
  await call(procs[0]!.url, "POST", `/games/${game!.id}/actions`, game!.player, {
    text: "look around",
    idempotencyKey: "x",
  });
  const times = await Promise.all(arrived);
  for (const c of controllers) c.abort();
  return Math.max(...times) - sent;
}

/**
 * The memory of idle servers once V8 has given back what the last burst of work grew: its memory
 * reducer shrinks the heap some 5-10 s after the work stops, and the pages leave the resident set a
 * few seconds later. Measured (each measure a full GC) after SETTLE_MIN_S, then every 5 s until the
 * resident set falls by less than 1 MB, at most SETTLE_S.
 */
async function settle<T extends { rss: number }>(usage: () => Promise<T>): Promise<T & { seconds: number }> {
  const from = performance.now();
  const pause = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
  await pause(Math.min(SETTLE_MIN_S, SETTLE_S));
  let last = await usage();
  while (performance.now() - from < SETTLE_S * 1000) {
    await pause(5);
    const now = await usage();
    const fell = last.rss - now.rss;
    last = now;
    if (fell < 1024 * 1024) break;
  }
  return { ...last, seconds: (performance.now() - from) / 1000 };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function run(context: BenchContext): Promise<void> {
  if (STORES.includes("start")) await measureStart(context);
  if (!STORES.some((store) => store !== "start" && store !== "recovery")) {
    if (STORES.includes("recovery")) await recovery(context);
    return;
  }
  const world = readFileSync(join(context.root, "examples/harbor.world.json"), "utf8");
  const configs: { label: string; where: StoreWhere; processes: number }[] = [];
  if (STORES.includes("sqlite"))
    configs.push({
      label: "SQLite, 1 process",
      where: { data: mkdtempSync(join(context.workDir, "serve-")) },
      processes: 1,
    });
  if (DATABASE) {
    const schema = () => `tf_bench_${randomBytes(4).toString("hex")}`;
    if (STORES.includes("pg1"))
      configs.push({
        label: "PostgreSQL, 1 process",
        where: { database: DATABASE, schema: schema() },
        processes: 1,
      });
    if (STORES.includes("pg2"))
      configs.push({
        label: "PostgreSQL, 2 processes",
        where: { database: DATABASE, schema: schema() },
        processes: 2,
      });
  } else context.print("PostgreSQL rows skipped: set TALEFORGE_TEST_DATABASE_URL to measure them.");

  const bundle = process.env.TALEFORGE_BENCH_SERVE_TSX ? null : await bundleServeChild(context.root);
  let budget: CpuBudget | null = null;
  if (CPUS !== null) {
    const made = cpuBudget(CPUS);
    if ("unavailable" in made) throw new Error(`TALEFORGE_BENCH_SERVE_CPUS: ${made.unavailable}`);
    budget = made;
    context.print(`CPU budget: ${made.describe}.`);
  }
  context.print(
    bundle
      ? "Servers run bench/serve-child.ts bundled, on plain Node (as the installed taleforge serve runs from dist/); TALEFORGE_BENCH_SERVE_TSX=1 runs the source through tsx instead."
      : "Servers run bench/serve-child.ts through tsx (its loader's memory included).",
  );
  const rows: string[][] = [];
  const memoryRows: string[][] = [];
  const fanOuts: string[][] = [];
  const phaseRows: string[][] = [];
  const processRows: string[][] = [];
  const pathRows: string[][] = [];
  const breakdowns: { label: string; active: Awaited<ReturnType<typeof playActive>>; parts: Breakdown }[] =
    [];
  const rates = new Map<string, number>();
  for (const config of configs) {
    const procs: Proc[] = [];
    try {
      for (let i = 0; i < config.processes; i++) procs.push(await start(config.where, bundle, budget));
      const hash = (await call(procs[0]!.url, "POST", "/worlds", undefined, undefined, world)).hash as string;
      // Each figure summed over the server processes; their sandbox processes (started at the first script) apart.
      const usage = async () =>
        (await Promise.all(procs.map((p) => p.memory()))).reduce(
          (a, m) => ({
            rss: a.rss + m.rss,
            heapTotal: a.heapTotal + m.heapTotal,
            heapUsed: a.heapUsed + m.heapUsed,
            external: a.external + m.external,
            children: a.children + m.children,
            childrenOwn: a.childrenOwn + m.childrenOwn,
          }),
          { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, children: 0, childrenOwn: 0 },
        );
      const rss = async () => (await usage()).rss;
      const [sample] = await makeGames(procs.slice(0, 1), hash, 1);
      const saved = await fetch(`${procs[0]!.url}/games/${sample!.id}/save`, {
        headers: { authorization: `Bearer ${sample!.host}` },
      });
      const save = await saved.text();
      const base = await rss();
      let idle = 0;
      let rssAtIdle = base;
      for (const level of IDLE_LEVELS) {
        await makeIdle(procs, hash, save, level - idle);
        idle = level;
        const atIdle = await usage();
        rssAtIdle = atIdle.rss;
        const settled = await settle(usage);
        const active = await playActive(
          procs,
          hash,
          config.where,
          `${config.label.replace(/[^a-zA-Z0-9]+/g, "-").toLowerCase()}-${level}`,
        );
        const rssActive = await rss();
        rates.set(`${config.label} ${level}`, active.turnsPerSecond);
        if (SHOW_QUERIES && active.queriesPerTurn.length > 0) {
          context.print(`${config.label}, ${level} idle: store queries per turn, by SQL text`);
          for (const q of active.queriesPerTurn.sort((a, b) => b.n - a.n))
            context.print(`  ${q.n.toFixed(2).padStart(6)}  ${q.text.replace(/\s+/g, " ").slice(0, 220)}`);
        }
        rows.push([
          config.label,
          String(level),
          active.turnsPerSecond.toFixed(1),
          `${ms(active.own.p50)} / ${ms(active.own.p99)}`,
          config.processes === 1 ? `p99 < ${TARGET_P99_MS} ms` : "",
          `${ms(active.queued.p50)} / ${ms(active.queued.p99)}`,
          `${ms(active.endToEnd.p50)} / ${ms(active.endToEnd.p99)}`,
          active.cpuPerTurn.map((c) => c.toFixed(1)).join(" + "),
          active.sandboxCpuPerTurn.map((c) => c.toFixed(1)).join(" + "),
          active.pgCpuPerTurn === null ? "" : active.pgCpuPerTurn.toFixed(1),
          active.pgCpuPerTurn === null ? "" : active.queriesPerTurn.reduce((a, q) => a + q.n, 0).toFixed(1),
          active.clientCpuPerTurn.toFixed(1),
        ]);
        phaseRows.push([
          config.label,
          String(level),
          ...active.phases.map((p) => `${p.p50.toFixed(1)} / ${p.p99.toFixed(1)} / ${p.tail.toFixed(1)}`),
          active.tailMs.toFixed(1),
          active.pauses
            .map((p) => `${p.loop.p50.toFixed(0)} / ${p.loop.p99.toFixed(0)} / ${p.loop.max.toFixed(0)}`)
            .join(", "),
          active.pauses
            .map((p) => `${p.gc.ms.toFixed(0)} / ${p.gc.count} / ${p.gc.maxMs.toFixed(1)}`)
            .join(", "),
        ]);
        const f = (x: { p50: number; p99: number; slowest: number }) =>
          `${x.p50.toFixed(0)} / ${x.p99.toFixed(0)} / ${x.slowest.toFixed(0)}`;
        pathRows.push([
          config.label,
          String(level),
          f(active.path.post),
          ...active.path.legs.map(f),
          f(active.path.total),
          active.roundMs.toFixed(0),
          `${(100 * active.slotsBusy).toFixed(0)} % of ${procs.reduce((a, p) => a + p.maxSteps, 0)}`,
          `${active.benchCores.toFixed(2)} / ${cpus().length}`,
          `${(100 * active.machineBusy).toFixed(0)} %`,
        ]);
        processRows.push([
          config.label,
          String(level),
          ...(["systemMs", "voluntary", "involuntary", "notifications"] as const).map((key) =>
            active.perProcess.map((p) => p[key].toFixed(key === "systemMs" ? 1 : 2)).join(" + "),
          ),
          active.perProcess
            .map((p) =>
              Object.entries(p.threads)
                .filter(([, v]) => v >= 0.05)
                .sort((a, b) => b[1] - a[1])
                .map(([name, v]) => `${name} ${v.toFixed(1)}`)
                .join(", "),
            )
            .join(" | "),
        ]);
        memoryRows.push([
          config.label,
          String(level),
          mb(rssAtIdle),
          `${mb(settled.rss)} (${Math.round(settled.seconds)} s)`,
          `${mb(settled.children)} (${mb(settled.childrenOwn)})`,
          mb(settled.rss + settled.childrenOwn),
          `${mb(settled.heapTotal)} / ${mb(settled.heapUsed)} / ${mb(settled.external)}`,
          `${mb(atIdle.heapTotal)} / ${mb(atIdle.heapUsed)} / ${mb(atIdle.external)}`,
          kb((rssAtIdle - base) / level),
          kb((rssActive - rssAtIdle) / ACTIVE_GAMES),
        ]);
        // The active games stay as idle ones: the next level counts them.
        idle += ACTIVE_GAMES;
      }
      if (config.processes === 1 && BREAKDOWN) {
        // After the measured levels, a pass of its own under the profiler (which costs CPU itself).
        const dir = join(context.workDir, "breakdown");
        const as = config.label.replace(/[^a-zA-Z0-9]+/g, "-").toLowerCase();
        const profiled = await playActive(procs, hash, config.where, as, dir);
        breakdowns.push({
          label: config.label,
          active: profiled,
          parts: breakdownOf(join(dir, `${as}-p0.cpuprofile`), bundle),
        });
      }
      fanOuts.push([config.label, ms(await fanOut(procs, hash))]);
    } finally {
      for (const p of procs) await p.stop().catch(() => {});
      budget?.release();
      if ("schema" in config.where) await dropSchema(config.where);
    }
  }
  context.print(
    formatTable(
      [
        "Store",
        "idle games",
        "turns/s",
        "engine-side p50 / p99",
        "target",
        "queued p50 / p99",
        "end-to-end p50 / p99",
        "server CPU ms/turn",
        "sandbox CPU ms/turn",
        "PostgreSQL CPU ms/turn",
        "PostgreSQL queries/turn",
        "client CPU ms/turn",
      ],
      rows,
    ),
  );
  context.print(
    `Turns: ${ACTIVE_GAMES} games with one player each play ${TURNS} turns at once beside the idle games${WARMUP > 0 ? ` (measured after ${WARMUP} turns that are not: a fresh process's first turns measure V8 compiling its code)` : ""}, each client following its game's event stream. Engine-side: the step's own time from its step log (restore the save, engine, offline narrator, commit), from taking a step slot to the commit; queued: the wait for a slot; end-to-end: from sending the action to receiving the turn event. Server CPU: user + system time of each server process over the turns, divided by all the turns played; sandbox CPU: the same for each server's script processes; PostgreSQL CPU: the database backends serving the servers; client CPU: this benchmark's own process (the 50 players' HTTP and event streams). Their sum is what one turn costs the machine.`,
  );
  if (DATABASE)
    for (const level of IDLE_LEVELS) {
      const one = rates.get(`PostgreSQL, 1 process ${level}`) ?? 0;
      const two = rates.get(`PostgreSQL, 2 processes ${level}`) ?? 0;
      // Only when both setups ran (TALEFORGE_BENCH_SERVE_STORES may leave one out).
      if (one === 0 || two === 0) continue;
      context.print(
        `Two processes vs one on PostgreSQL, ${level} idle: ${(two / one).toFixed(2)}x the turns/s (target >= ${TARGET_SCALE}x)${CPUS === null ? "" : `, each process limited to ${CPUS} core(s)`}.`,
      );
    }
  context.print();
  context.print(
    formatTable(
      [
        "Store",
        "idle games",
        ...PHASES.map((p) => `${p.replace(/Ms$/, "")} p50 / p99 / tail`),
        "tail step (mean)",
        "event loop delay p50 / p99 / max",
        "GC ms / pauses / longest",
      ],
      phaseRows,
    ),
  );
  context.print(
    "Where the steps' time went (ms), from their step logs: restore (the world and the last state read), start (the session restored), run (the engine, its sandbox round trips, the offline narrator), save (the new state serialised), commit (the transaction); p50 and p99 of each phase, and its mean over the slowest 1% of steps (tail). Event loop delay (ms, sampled every 10 ms) and the garbage collector's pauses of each server process over the turns.",
  );
  context.print();
  context.print(
    formatTable(
      [
        "Store",
        "idle games",
        "POST answered",
        ...LEGS,
        "end-to-end",
        "round (mean)",
        "step slots busy",
        "cores used (bench's processes)",
        "machine busy",
      ],
      pathRows,
    ),
  );
  context.print(
    "Where a turn's end-to-end time went (ms, p50 / p99 / mean of the slowest 1% of turns), the client's times joined with the turn's step log line: sent → queued (HTTP, the submission stored, the turn found due), queued (the wait for a step slot), claim (the game claimed and its submissions read again, holding the slot), step (its own time, as engine-side above), commit → turn event (published, written to the stream, read); the legs add up to the end-to-end time; POST answered overlaps the first leg. Round: the wall time of one turn of every active game at once. Step slots busy: the steps' claims and own time over the slots' time (--max-steps per process, TALEFORGE_BENCH_SERVE_MAX_STEPS); cores used: the CPU time of the servers, their sandboxes, PostgreSQL's backends and this client over the wall time; machine busy: every process on the machine (/proc/stat). A round near 100 % slots busy waits for the slots; near all cores used, for the CPU.",
  );
  context.print();
  context.print(
    formatTable(
      [
        "Store",
        "idle games",
        "of which system CPU ms/turn",
        "voluntary context switches/turn",
        "involuntary context switches/turn",
        "NOTIFY received/turn",
        "CPU ms/turn by thread",
      ],
      processRows,
    ),
  );
  context.print(
    "Each server process over the turns, divided by all the turns played: the part of its CPU time spent in the kernel (system), how often it gave the CPU up waiting for work (voluntary: its event loop went to sleep) or had it taken (involuntary), the NOTIFY messages it received (a process hears the games its event streams follow), and its CPU time by thread (main: the event loop; V8's workers compile and collect garbage beside it; libuv's pool).",
  );
  context.print();
  context.print(
    formatTable(
      [
        "Store",
        "idle games",
        "RSS (server processes)",
        "RSS settled (idle for)",
        "sandbox processes, settled (own)",
        "servers + sandboxes' own, settled",
        "heap total / used / external, settled",
        "heap total / used / external",
        "per idle game",
        "per active game",
      ],
      memoryRows,
    ),
  );
  context.print(
    `Memory: resident set of the server processes after a full GC (their sandbox processes, started at the first script, in their own column), right after the idle games were imported (and, from the second level, after the turns before them), then settled: after the process sat idle until its resident set stopped falling (V8's memory reducer gives back the heap a burst of work grew, some 5 to 10 s after it, and its pages leave the resident set a few seconds later: measured from ${SETTLE_MIN_S} s on, at most ${SETTLE_S} s). Sandbox processes: their resident set and, in brackets, their own (private) pages: the rest is mostly the Node executable's pages, shared with the server process and held once by the machine. Target (on the settled figure of a server whose games are idle, with its script process's own pages): ${IDLE_LEVELS.at(-1)} idle games under ${TARGET_IDLE_MB} MB (one process).`,
  );
  context.print();
  context.print(formatTable(["Store", `SSE: one turn to ${LISTENERS} listeners`], fanOuts));
  printTargets(context, rows);
  printBreakdowns(context, breakdowns);
  if (STORES.includes("recovery")) await measureRecovery(context, world, DATABASE, bundle);
}

/** Issue 38's targets of a turn on one process, 50 games at once: printed, never asserted. */
const TARGET_CPU_PER_TURN_MS = 6;
const TARGET_END_TO_END_P99_MS = 300;

/** Per one-process setup and idle level: server CPU per turn and end-to-end p99 against issue 38's targets. */
function printTargets(context: BenchContext, rows: string[][]): void {
  const lines = rows
    .filter((r) => r[0]!.includes("1 process"))
    .map((r) => {
      const cpu = Number(r[7]);
      const e2e = Number(/\/ ([\d.]+) ms$/.exec(r[6]!)?.[1]);
      const mark = (ok: boolean) => (ok ? "within" : "OVER");
      return [
        r[0]!,
        r[1]!,
        `${cpu.toFixed(1)} ms`,
        `<= ${TARGET_CPU_PER_TURN_MS} ms: ${mark(cpu <= TARGET_CPU_PER_TURN_MS)}`,
        `${e2e.toFixed(0)} ms`,
        `< ${TARGET_END_TO_END_P99_MS} ms: ${mark(e2e < TARGET_END_TO_END_P99_MS)}`,
      ];
    });
  if (lines.length === 0) return;
  context.print();
  context.print(
    `Issue 38: a turn on one process, ${ACTIVE_GAMES} games at once (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")})`,
  );
  context.print();
  context.print(
    formatTable(["Store", "idle games", "server CPU per turn", "target", "end-to-end p99", "target"], lines),
  );
}

/**
 * Where a turn's CPU went, from the profiled pass (serve-breakdown.ts): each part's share of the main
 * thread's samples times the main thread's CPU per turn in that pass; the other threads' CPU beside.
 */
function printBreakdowns(
  context: BenchContext,
  breakdowns: {
    label: string;
    active: { cpuPerTurn: number[]; perProcess: { threads: Record<string, number> }[] };
    parts: Breakdown;
  }[],
): void {
  if (breakdowns.length === 0) return;
  const turns = ACTIVE_GAMES * TURNS;
  const sampled = (b: Breakdown) => [...b.ms.values()].reduce((a, v) => a + v, 0);
  const mainCpu = (b: (typeof breakdowns)[number]) => b.active.perProcess[0]?.threads.main ?? Number.NaN;
  const otherThreads = (b: (typeof breakdowns)[number]) =>
    Object.entries(b.active.perProcess[0]?.threads ?? {})
      .filter(([name, v]) => name !== "main" && v >= 0.05)
      .sort((x, y) => y[1] - x[1]);
  context.print();
  context.print(
    `Where a turn's CPU goes: a further ${turns} turns (${ACTIVE_GAMES} games at once) under a CPU profile of the server's main thread (200 µs samples). Each sample goes to the first part on its stack from the running function up (HTTP only when nothing else is there); a part's ms per turn is its share of the samples times the main thread's CPU per turn in that pass. The other threads (SQLite's own thread, the work pool's, V8's compiler and collector helpers: "node" is every thread Node does not name) are measured by their CPU time alone. The profiler costs CPU itself, so this pass's total is above the measured one.`,
  );
  context.print();
  context.print(
    formatTable(
      ["part", ...breakdowns.flatMap((b) => [`${b.label}: ms per turn`, "share of main thread"])],
      [
        ...PARTS.map((part) => [
          part,
          ...breakdowns.flatMap((b) => {
            const share = (b.parts.ms.get(part) ?? 0) / Math.max(sampled(b.parts), 1e-9);
            return [(share * mainCpu(b)).toFixed(2), `${(100 * share).toFixed(0)} %`];
          }),
        ]),
        ["main thread, CPU per turn", ...breakdowns.flatMap((b) => [mainCpu(b).toFixed(2), ""])],
        ...[...new Set(breakdowns.flatMap((b) => otherThreads(b).map(([name]) => name)))].map((name) => [
          `thread "${name}", CPU per turn`,
          ...breakdowns.flatMap((b) => [(b.active.perProcess[0]?.threads[name] ?? 0).toFixed(2), ""]),
        ]),
        [
          "process CPU per turn in this pass",
          ...breakdowns.flatMap((b) => [b.active.cpuPerTurn[0]!.toFixed(2), ""]),
        ],
      ],
    ),
  );
  for (const b of breakdowns)
    if (b.parts.others.length > 0)
      context.print(
        `  ${b.label}, "other" most (ms of samples per turn): ${b.parts.others.map(([k, v]) => `${k.trim()} ${(v / turns).toFixed(2)}`).join("; ")}`,
      );
}

type StoreWhere = { data: string } | { database: string; schema: string };

function withParam(url: string, key: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(key, value);
  return parsed.toString();
}

/** CPU time (microseconds) of each PostgreSQL backend whose application_name is the schema, from /proc. */
async function backendsCpu(where: StoreWhere): Promise<Map<number, number> | null> {
  if (!("database" in where)) return null;
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: where.database });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where application_name = $1",
      [where.schema],
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.set(pid, ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6);
      } catch {
        // Not on this machine, or gone.
      }
    }
    return out;
  } finally {
    await client.end();
  }
}

function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

async function dropSchema(where: { database: string; schema: string }) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: where.database });
  await client.connect();
  await client.query(`drop schema if exists ${where.schema} cascade`);
  await client.end();
}
