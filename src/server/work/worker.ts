import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { starterWorld } from "../../world/starter.ts";
import { runTask, type Task } from "./tasks.ts";

/**
 * This thread's scheduling priority lowered (Linux: a thread id given to setpriority names that thread
 * alone): on a busy machine a flood of uploads' checks then takes the CPU the event loop leaves, not
 * the event loop's, so other games' turns and reads go on at their pace. Elsewhere: left as it is.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORK_NICE);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}
const WORK_NICE = 10;
lowerPriority();

/** A thread of the work pool (pool.ts): runs one task at a time and answers with its result. */
parentPort?.on("message", (message: { id: number; task: Task }) => {
  try {
    parentPort?.postMessage({ id: message.id, ok: true, value: runTask(message.task) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, ok: false, error: String((error as Error)?.message ?? error) });
  }
});

/**
 * The check's lazy parts (schema plans, rule tables, regexes) built and its code run a few times before
 * the first task: a replaced thread's first upload (after one that outlived its time) then takes about
 * what it takes on a warm thread, not twice to four times that, and is not stopped for the thread's youth.
 */
function warmUp(): void {
  const text = JSON.stringify(starterWorld());
  for (let i = 0; i < WARM_UP_CHECKS; i++) runTask({ kind: "check", text, name: "warm-up.json" });
}
const WARM_UP_CHECKS = 3;
warmUp();

// Loaded and warmed: the pool starts timing tasks from now on (loading is not the task's time).
parentPort?.postMessage({ ready: true });
