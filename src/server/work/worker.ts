import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
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

// Loaded: the pool starts timing tasks from now on (loading the modules is not the task's time).
parentPort?.postMessage({ ready: true });
