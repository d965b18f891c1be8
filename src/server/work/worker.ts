import { parentPort } from "node:worker_threads";
import { runTask, type Task } from "./tasks.ts";

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
