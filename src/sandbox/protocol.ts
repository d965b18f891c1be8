import type { ScriptCall, ScriptOutcome, ScriptPhaseInfo } from "../engine/ports.ts";

/**
 * The JSON messages between the sandbox host (parent) and its child process.
 * Every request carries an id; the child answers each with the same id.
 */

/** Script execution time per phase, shared by all its scripts (spec 8). */
export const PHASE_BUDGET_MS = 500;

/** Log text kept per phase; then one truncation notice. */
export const LOG_CAP_BYTES = 64 * 1024;

/**
 * Memory of a phase's isolate in MB (spec 8: 16 MB base plus headroom
 * proportional to the trigger-set size): 16 + ceil(4 * bytes / 1 MiB). Four
 * times, because the trigger map exists in the isolate as JSON text (UTF-16,
 * two bytes a character) and as the parsed object when a script touches it.
 */
export function memoryLimitMb(triggerSetBytes: number): number {
  const bytes = Number.isFinite(triggerSetBytes) && triggerSetBytes > 0 ? triggerSetBytes : 0;
  return 16 + Math.ceil((4 * bytes) / (1024 * 1024));
}

/**
 * A script call as it crosses to the child. The trigger map (hundreds of KB on
 * a large world) is sent once and again only when it changed: a call without
 * `triggers` uses the map the child last received.
 */
export type WireCall = Omit<ScriptCall, "triggers"> & { triggers?: ScriptCall["triggers"] };

export type Request =
  | { id: number; type: "begin"; phaseId: number; info: ScriptPhaseInfo }
  | { id: number; type: "run"; phaseId: number; call: WireCall; budgetMs: number }
  | { id: number; type: "end"; phaseId: number };

export type Reply =
  | { id: number; type: "ready" }
  | { id: number; type: "begun" }
  | { id: number; type: "ran"; outcome: ScriptOutcome; usedMs: number }
  | { id: number; type: "ended" }
  | { id: number; type: "failed"; message: string };
