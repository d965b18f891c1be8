import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type {
  ScriptCall,
  ScriptOutcome,
  ScriptPhase,
  ScriptPhaseInfo,
  ScriptRunner,
} from "../engine/ports.ts";
import { bundleChild } from "./bundle.ts";
import { PHASE_BUDGET_MS, type Reply, type Request, type WireCall } from "./protocol.ts";

/**
 * The parent side of the sandbox: one child process that owns the isolates
 * (src/sandbox/child.ts). A V8 abort on a huge allocation kills only the
 * child: the running call is answered "memory", every phase that lived in
 * that child is terminated, and the next phase starts a new child. Calls are
 * sent one at a time, so each call's watchdog (remaining budget plus a
 * margin) measures that call alone; a child that overruns it is killed.
 */

export interface HostOptions {
  /** Extra time over the remaining budget before the host kills a hung child. */
  watchdogMarginMs?: number;
  /** How long a child may take to start. */
  startTimeoutMs?: number;
}

const CHILD_SOURCE = fileURLToPath(new URL("./child.ts", import.meta.url));
/** Built on the first start; undefined until then, null when bundling failed (tsx runs the source). */
let childBundle: string | null | undefined;

type Pending = { resolve: (reply: Reply | null) => void };

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Phases whose isolates live in this child. */
  phases: Set<HostPhase>;
  alive: boolean;
  /** Set when the host killed the child for overrunning a call: the call timed out rather than ran out of memory. */
  watchdogFired: boolean;
  /** The trigger map the child holds: a call passing the same object does not send it again. */
  sentTriggers: ScriptCall["triggers"] | null;
}

export class SandboxHost implements ScriptRunner {
  private child: Child | null = null;
  private nextId = 1;
  private nextPhase = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  readonly watchdogMarginMs: number;
  readonly startTimeoutMs: number;

  constructor(options: HostOptions = {}) {
    this.watchdogMarginMs = options.watchdogMarginMs ?? 1000;
    this.startTimeoutMs = options.startTimeoutMs ?? 20_000;
  }

  async beginPhase(info: ScriptPhaseInfo): Promise<ScriptPhase> {
    if (this.closed) throw new Error("the sandbox is closed");
    const phaseId = this.nextPhase++;
    const reply = await this.serial(async () => {
      const child = await this.ensureChild();
      const phase = new HostPhase(this, child, phaseId);
      const answer = await this.request(child, { id: 0, type: "begin", phaseId, info }, this.startTimeoutMs);
      if (answer?.type !== "begun") throw new Error(failureText(answer, "could not begin the phase"));
      child.phases.add(phase);
      return phase;
    });
    return reply;
  }

  /**
   * Starts the child process now rather than at the first script, so that a
   * host can overlap its start-up (about 100 ms) with other work, such as the
   * opening narration. Failures surface at the first phase, as usual.
   */
  warm(): void {
    if (this.closed) return;
    this.serial(async () => {
      // close() may have come first; a child started after it would keep Node alive.
      if (!this.closed) await this.ensureChild();
    }).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    if (child) await stop(child);
  }

  /** Runs `task` after every earlier task, so the child never holds two calls at once. */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Sends one request; null when the child died or the watchdog fired first. */
  request(child: Child, request: Request, timeoutMs: number): Promise<Reply | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!child.alive) {
        resolve(null);
        return;
      }
      const timer = setTimeout(() => {
        child.pending.delete(id);
        child.watchdogFired = true;
        child.process.kill("SIGKILL");
        resolve(null);
      }, timeoutMs);
      child.pending.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      });
      child.process.send({ ...request, id });
    });
  }

  private async ensureChild(): Promise<Child> {
    if (this.child?.alive) {
      await this.child.ready;
      return this.child;
    }
    const child = spawn();
    this.child = child;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.process.kill("SIGKILL");
        reject(new Error("the sandbox child did not start in time"));
      }, this.startTimeoutMs);
    });
    try {
      await Promise.race([child.ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
    return child;
  }
}

function spawn(): Child {
  if (childBundle === undefined) childBundle = bundleChild();
  const proc = fork(childBundle ?? CHILD_SOURCE, [], {
    execArgv: childBundle ? [] : ["--import", "tsx"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
  const child: Child = {
    process: proc,
    ready: Promise.resolve(),
    pending: new Map(),
    phases: new Set(),
    alive: true,
    watchdogFired: false,
    sentTriggers: null,
  };
  // A child's stderr (V8's fatal OOM report) is drained so it never blocks, and not echoed.
  proc.stderr?.resume();
  child.ready = new Promise((resolve, reject) => {
    proc.on("message", (reply: Reply) => {
      if (reply.type === "ready") {
        resolve();
        return;
      }
      const pending = child.pending.get(reply.id);
      child.pending.delete(reply.id);
      pending?.resolve(reply);
    });
    proc.on("exit", () => {
      child.alive = false;
      reject(new Error("the sandbox child exited while starting"));
      for (const phase of child.phases) phase.terminated = true;
      for (const pending of child.pending.values()) pending.resolve(null);
      child.pending.clear();
    });
    proc.on("error", () => proc.kill("SIGKILL"));
  });
  child.ready.catch(() => undefined);
  return child;
}

async function stop(child: Child): Promise<void> {
  if (!child.alive) return;
  const exited = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
  child.process.disconnect();
  const timer = setTimeout(() => child.process.kill("SIGKILL"), 2000);
  await exited;
  clearTimeout(timer);
}

function failureText(reply: Reply | null, fallback: string): string {
  if (reply?.type === "failed") return `${fallback}: ${reply.message}`;
  return `${fallback}: the sandbox child stopped`;
}

class HostPhase implements ScriptPhase {
  terminated = false;
  private usedMs = 0;
  private ended = false;

  constructor(
    private readonly host: SandboxHost,
    private readonly child: Child,
    private readonly phaseId: number,
  ) {}

  run(call: ScriptCall): Promise<ScriptOutcome> {
    return this.host.serial(async () => {
      if (this.ended) return stopped("runtime", "the phase has ended", 0);
      if (this.terminated || !this.child.alive) {
        this.terminated = true;
        return stopped("memory", "the phase's isolate was terminated", 0);
      }
      const left = PHASE_BUDGET_MS - this.usedMs;
      if (left <= 0) return stopped("budget", "the phase's 500 ms script budget is used up", 0);
      const started = performance.now();
      // The engine never changes a trigger map in place (an edit is a new object), so identity tells
      // "unchanged": the same map serves every phase and turn until a script edits it.
      const { triggers, ...rest } = call;
      const wire: WireCall = triggers === this.child.sentTriggers ? rest : call;
      this.child.sentTriggers = triggers;
      const reply = await this.host.request(
        this.child,
        { id: 0, type: "run", phaseId: this.phaseId, call: wire, budgetMs: left },
        left + this.host.watchdogMarginMs,
      );
      const elapsed = performance.now() - started;
      if (reply?.type === "ran") {
        this.usedMs += reply.usedMs;
        if (reply.outcome.status === "error" && reply.outcome.failure === "memory") this.terminated = true;
        return reply.outcome;
      }
      this.terminated = true;
      this.usedMs = PHASE_BUDGET_MS;
      if (reply?.type === "failed") return stopped("runtime", reply.message, elapsed);
      // No answer: the child died (a V8 abort on allocation) or hung past the watchdog.
      return this.child.watchdogFired
        ? stopped(
            "timeout",
            "the script did not stop within the phase's budget; its process was killed",
            elapsed,
          )
        : stopped("memory", "the script exceeded the memory limit; its process was killed", elapsed);
    });
  }

  end(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    this.child.phases.delete(this);
    return this.host.serial(async () => {
      if (this.child.alive)
        await this.host.request(this.child, { id: 0, type: "end", phaseId: this.phaseId }, 5000);
    });
  }
}

function stopped(
  failure: Extract<ScriptOutcome, { status: "error" }>["failure"],
  message: string,
  elapsedMs: number,
) {
  return {
    status: "error",
    failure,
    message,
    line: null,
    column: null,
    logs: [],
    elapsedMs,
  } as ScriptOutcome;
}
