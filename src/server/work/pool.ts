import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ApiError } from "../errors.ts";
import type { Task, TaskResult } from "./tasks.ts";

/** The work thread's bundle in dist/ (scripts/build.ts), relative to this file's URL once built. */
declare const __TF_WORK_WORKER__: string | undefined;

/** The name of the work thread's bundle in dist/. */
export const WORK_WORKER = "work-worker.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));

export interface PoolLimits {
  /** Threads (default: the cores but one, at least 1, at most 4). */
  size: number;
  /** Tasks that may wait for a thread; past it a task is refused with 503 `server/busy`. */
  queue: number;
  /** A task running longer is stopped (its thread ended and replaced): `world/check-timeout` (an import: `save/invalid`). */
  timeoutMs: number;
  /**
   * A thread with no task for this long ends (the next task starts one again). A work thread holds
   * its own V8 heap with the check's and the save reader's code, some 40-50 MB of the process's
   * resident set, for uploads and imports that come in bursts (issue 11's memory target: an idle
   * server with 1,000 games held it for ever after their import).
   */
  idleMs: number;
}

export const DEFAULT_POOL: PoolLimits = {
  size: Math.max(1, Math.min(4, availableParallelism() - 1)),
  queue: 8,
  timeoutMs: 20_000,
  idleMs: 10_000,
};

/** The thread's code as one ES module (packages external), built by esbuild (loaded only here). */
export async function workerCode(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [join(HERE, "worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    packages: "external",
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

let bundled: Promise<string> | undefined;
/** The thread's file: dist's when built; from the sources, a bundle kept under node_modules/.cache. */
function workerFile(): Promise<string> {
  bundled ??= (async () => {
    if (typeof __TF_WORK_WORKER__ === "string") {
      const built = fileURLToPath(new URL(__TF_WORK_WORKER__, import.meta.url));
      if (existsSync(built)) return built;
    }
    const code = await workerCode();
    const digest = createHash("sha256").update(code).digest("hex").slice(0, 16);
    const dir = join(HERE, "..", "..", "..", "node_modules", ".cache", "taleforge-work");
    const file = join(dir, `worker-${digest}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      // Written aside and renamed, so that another process never starts a half-written file.
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    return file;
  })();
  bundled.catch(() => {
    bundled = undefined;
  });
  return bundled;
}

interface Job {
  task: Task;
  resolve(value: TaskResult): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Ends the thread when it has had no task for PoolLimits.idleMs. */
  idle: NodeJS.Timeout | null;
}

/**
 * Threads (node:worker_threads) for the work a client's request causes beyond a slice of the event
 * loop: checking an uploaded world, reading an imported save, drawing a map. A bounded number of threads, and a bounded queue
 * in front of them: past it a task is refused at once with `503 server/busy` and a `Retry-After`, so a
 * flood of uploads never holds the event loop, other games' requests or the health checks. A task
 * that outlives its time is stopped with its thread. Threads start at the first task.
 */
export class WorkPool {
  private readonly threads: Thread[] = [];
  private readonly waiting: Job[] = [];
  private starting = 0;
  private closed = false;
  private nextId = 1;
  constructor(readonly limits: PoolLimits = DEFAULT_POOL) {}

  /** Threads started and not ended (running a task or idle). */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.threads.filter((t) => t.job).length, waiting: this.waiting.length };
  }

  run(task: Task): Promise<TaskResult> {
    if (this.closed) return Promise.reject(new ApiError("server/unavailable", "shutting-down"));
    const idle = this.threads.find((t) => t.job === null);
    const canGrow = this.threads.length + this.starting < this.limits.size;
    if (!idle && !canGrow && this.waiting.length >= this.limits.queue)
      return Promise.reject(
        new ApiError(
          "server/busy",
          "workers",
          { seconds: this.retryAfter() },
          { retryAfterSeconds: this.retryAfter(), queue: this.limits.queue },
        ),
      );
    return new Promise<TaskResult>((resolve, reject) => {
      const job: Job = { task, resolve, reject };
      if (idle) this.start(idle, job);
      else {
        this.waiting.push(job);
        if (canGrow) void this.grow();
      }
    });
  }

  /** A wait worth suggesting: the queue's length in rounds of the threads, a second at least. */
  private retryAfter(): number {
    return Math.max(1, Math.ceil((this.waiting.length + 1) / this.limits.size));
  }

  private async grow(): Promise<void> {
    this.starting++;
    try {
      const file = await workerFile();
      if (this.closed) return;
      const worker = new Worker(file);
      worker.unref();
      await new Promise<void>((resolve, reject) => {
        const ready = () => settle();
        const failed = (error: unknown) => settle(error);
        const exited = () => settle(new Error("the work thread exited as it started"));
        // Only these listeners are taken off (the Worker's own, which start its port, stay).
        const settle = (error?: unknown) => {
          worker.off("message", ready);
          worker.off("error", failed);
          worker.off("exit", exited);
          if (error === undefined) resolve();
          else reject(error);
        };
        worker.on("message", ready);
        worker.on("error", failed);
        worker.on("exit", exited);
      });
      if (this.closed) {
        this.starting--;
        await worker.terminate();
        return;
      }
      const thread: Thread = { worker, job: null, timer: null, idle: null };
      worker.on("message", (message: { ok: boolean; value?: TaskResult; error?: string }) => {
        const job = thread.job;
        this.finish(thread);
        if (!job) return;
        if (message.ok) job.resolve(message.value!);
        else job.reject(new Error(message.error));
      });
      worker.on("error", (error) => this.lose(thread, error));
      worker.on("exit", () => this.lose(thread, new Error("the work thread exited")));
      this.threads.push(thread);
      this.starting--;
      this.next(thread);
    } catch (error) {
      this.starting--;
      // No thread could start (the bundle could not be built): the waiting tasks fail, not hang.
      if (this.threads.length === 0 && this.starting === 0)
        for (const job of this.waiting.splice(0)) job.reject(error);
    }
  }

  private start(thread: Thread, job: Job): void {
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    thread.job = job;
    thread.worker.ref();
    thread.timer = setTimeout(() => {
      const stopped = thread.job;
      if (!stopped) return;
      thread.job = null;
      // Out of the pool before it ends: no task is given to a thread being stopped.
      this.threads.splice(this.threads.indexOf(thread), 1);
      if (!this.closed && this.waiting.length > 0) void this.grow();
      const seconds = Number((this.limits.timeoutMs / 1000).toFixed(1));
      const details = { limitSeconds: this.limits.timeoutMs / 1000 };
      stopped.reject(
        stopped.task.kind === "import"
          ? new ApiError("save/invalid", "too-long", { seconds }, details)
          : new ApiError("world/check-timeout", "too-long", { seconds }, details),
      );
      void thread.worker.terminate();
    }, this.limits.timeoutMs);
    thread.worker.postMessage({ id: this.nextId++, task: job.task });
  }

  private finish(thread: Thread): void {
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = null;
    thread.job = null;
    thread.worker.unref();
    this.next(thread);
  }

  private next(thread: Thread): void {
    const job = this.waiting.shift();
    if (job) this.start(thread, job);
    else this.retireWhenIdle(thread);
  }

  /** Ends `thread` after PoolLimits.idleMs without a task (out of the pool first: no task goes to it). */
  private retireWhenIdle(thread: Thread): void {
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = setTimeout(() => {
      thread.idle = null;
      const at = this.threads.indexOf(thread);
      if (at < 0 || thread.job !== null) return;
      this.threads.splice(at, 1);
      void thread.worker.terminate();
    }, this.limits.idleMs);
    thread.idle.unref();
  }

  /** A thread that failed or exited: its task (if any) fails; another thread takes the queue. */
  private lose(thread: Thread, error: unknown): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.threads.splice(at, 1);
    if (thread.timer) clearTimeout(thread.timer);
    if (thread.idle) clearTimeout(thread.idle);
    thread.job?.reject(error);
    thread.job = null;
    if (!this.closed && this.waiting.length > 0) void this.grow();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new ApiError("server/unavailable", "shutting-down"));
    for (const thread of this.threads) if (thread.idle) clearTimeout(thread.idle);
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
