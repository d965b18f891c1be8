import { type ChildProcess, fork } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ScriptCall } from "../engine/ports.ts";
import { bundleChild } from "./bundle.ts";
import type { Reply } from "./protocol.ts";

/**
 * One sandbox child process as the host sees it. The process and its IPC
 * channel are unref'd, so a forgotten `close()` never keeps Node running (a
 * call in flight keeps it running through its watchdog timer), and every
 * process still alive when Node exits is killed then.
 */

const CHILD_SOURCE = fileURLToPath(new URL("./child.ts", import.meta.url));
/**
 * The child bundle the package build wrote (scripts/build.ts defines its path, relative to this
 * source file): the installed `taleforge` never starts esbuild to make it (about 300 ms of CPU at the
 * first script, or at `serve`'s start). Undefined when running the sources.
 */
declare const __TF_SANDBOX_CHILD__: string | undefined;
/** Built on the first start; undefined until then, null when bundling failed (tsx runs the source). */
let childBundle: string | null | undefined;

function prebuiltChild(): string | null {
  if (typeof __TF_SANDBOX_CHILD__ !== "string") return null;
  const file = fileURLToPath(new URL(__TF_SANDBOX_CHILD__, import.meta.url));
  return existsSync(file) ? file : null;
}

/**
 * The child's environment: fixed time zone and locale, so `Date`'s local
 * forms, `toLocaleString` and `Intl` give the same text on every machine.
 */
const FIXED_ENV = { TZ: "UTC", LANG: "en_US.UTF-8", LC_ALL: "en_US.UTF-8", LANGUAGE: "en_US" };

/**
 * The host's environment with FIXED_ENV, less NODE_EXTRA_CA_CERTS: the sandbox process opens no
 * TLS connection, and Node 20 parses those certificates at every start, before any script (50 ms
 * of a cold start on these machines, each new or replaced sandbox process: docs/benchmarks.md).
 */
export function childEnv(host: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...host, ...FIXED_ENV };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * V8 flags of the sandbox process: it runs the same few functions (its own, the prelude's, the
 * check bundle's and the world's scripts) thousands of times, so it optimises them after an eighth
 * of V8's default interrupt budget: the first phases after a start run warm sooner (issue 13).
 * Code tiers never change what a script computes.
 */
const CHILD_V8_FLAGS = ["--interrupt-budget=16000"];

type Pending = { resolve: (reply: Reply | null) => void };

export interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  alive: boolean;
  /**
   * Set when the host killed the process for overrunning a call: `hung` when it used the call's time
   * in CPU without answering (the script's `timeout`), `stalled` when the machine gave it too little
   * CPU to answer within the phase's wall-clock ceiling (the machine's); null while it was not killed.
   */
  watchdogFired: "hung" | "stalled" | null;
  /** The trigger map the process holds: a call passing the same object does not send it again. */
  sentTriggers: ScriptCall["triggers"] | null;
  /** The known map the process holds (the last one sent), compared by its flags: each call brings a new copy. */
  sentKnown: Record<string, boolean> | null;
  /** The snapshot fields the process holds (WireCall.parts), by name, as the JSON text last sent. */
  sentParts: Map<string, string>;
  /** Script texts sent to the process, by text, with the id the process keeps each under. */
  sentScripts: Map<string, number>;
  /** A plain message when the process could not load isolated-vm's native module. */
  missingNative: string | null;
  /** /proc/<pid>/stat kept open for childCpuMs (null until first read, or where there is none). */
  statFd: number | null;
}

const live = new Set<Child>();
let exitHook = false;

export function spawnChild(): Child {
  if (childBundle === undefined) childBundle = prebuiltChild() ?? bundleChild();
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => {
      for (const child of live) child.process.kill("SIGKILL");
    });
  }
  const proc = fork(childBundle ?? CHILD_SOURCE, [], {
    execArgv: childBundle ? [...CHILD_V8_FLAGS] : ["--import", "tsx", ...CHILD_V8_FLAGS],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
    env: childEnv(),
  });
  const child: Child = {
    process: proc,
    ready: Promise.resolve(),
    pending: new Map(),
    alive: true,
    watchdogFired: null,
    sentTriggers: null,
    sentKnown: null,
    sentParts: new Map(),
    sentScripts: new Map(),
    missingNative: null,
    statFd: null,
  };
  live.add(child);
  proc.unref();
  unrefChannel(proc);
  // The first KB of stderr tells a missing native module apart; the rest (V8's fatal OOM report) is drained, not echoed.
  let head = "";
  proc.stderr?.on("data", (chunk: Buffer) => {
    if (head.length < 4096) head += chunk.toString("utf8");
  });
  (proc.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  let started = false;
  child.ready = new Promise((resolve, reject) => {
    proc.on("message", (reply: Reply) => {
      if (reply.type === "ready") {
        started = true;
        resolve();
        return;
      }
      const pending = child.pending.get(reply.id);
      child.pending.delete(reply.id);
      pending?.resolve(reply);
    });
    proc.on("exit", () => {
      child.alive = false;
      live.delete(child);
      closeStat(child);
      if (!started && /isolated[-_]vm|\.node\b|NODE_MODULE_VERSION/.test(head)) {
        child.missingNative =
          "the script sandbox cannot start: isolated-vm's native module is missing or was built for another Node version; run `npm rebuild isolated-vm` (scripts are skipped and their triggers' typed effects apply)";
      }
      reject(new Error(child.missingNative ?? "the sandbox process exited while starting"));
      for (const pending of child.pending.values()) pending.resolve(null);
      child.pending.clear();
    });
    proc.on("error", () => proc.kill("SIGKILL"));
  });
  child.ready.catch(() => undefined);
  return child;
}

/** The IPC channel holds a handle of its own; unref'd, it no longer keeps the event loop alive. */
function unrefChannel(proc: ChildProcess): void {
  const channel = (proc as unknown as { channel?: { unref?: () => void } }).channel;
  channel?.unref?.();
}

export async function stopChild(child: Child): Promise<void> {
  if (!child.alive) return;
  const exited = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
  child.process.disconnect();
  const timer = setTimeout(() => child.process.kill("SIGKILL"), 2000);
  await exited;
  clearTimeout(timer);
}

/**
 * The CPU time (user and system, ms) a process has used, from /proc/<pid>/stat; null where there is
 * no such file (not Linux) or the process is gone. Read at each request (the watchdog's base) and when a call overran it, to
 * tell a hung process (it used the time) from a busy machine (it was not given it); the host reads
 * its own children with childCpuMs.
 */
export function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    return ticksOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** One buffer for the reads of childCpuMs (synchronous: never two at once). */
const statBuffer = Buffer.alloc(1024);

/**
 * cpuTimeMs of a child, read from its /proc/<pid>/stat kept open: the host asks at every request
 * (the watchdog's base), and a read of an open file is one system call where a path's is three
 * (some 7 against 15 µs). The same figure; null as cpuTimeMs answers it (the file gone: the process ended).
 */
export function childCpuMs(child: Child): number | null {
  const pid = child.process.pid;
  if (pid === undefined || !child.alive) return cpuTimeMs(pid);
  try {
    child.statFd ??= openSync(`/proc/${pid}/stat`, "r");
    const stat = statBuffer.toString("utf8", 0, readSync(child.statFd, statBuffer, 0, statBuffer.length, 0));
    return ticksOf(stat);
  } catch {
    closeStat(child);
    return cpuTimeMs(pid);
  }
}

function closeStat(child: Child): void {
  if (child.statFd === null) return;
  try {
    closeSync(child.statFd);
  } catch {
    // Closed already.
  }
  child.statFd = null;
}

/** The CPU time (ms) in a /proc/<pid>/stat text; null when its fields are not numbers. */
function ticksOf(stat: string): number | null {
  // Fields after the command name (which may hold spaces and parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : null;
}

/** USER_HZ, the unit of /proc's CPU times: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;
