import type { LogEntry, SessionState } from "./state.ts";
import type { QuestChange } from "./trace.ts";

/** The log keeps the latest entries only, so a long session's state stays small. */
export const LOG_LIMIT = 1000;

/**
 * What the steps of one turn report while they run, beside the state they
 * change: outcomes for the narrator, quest changes, and log entries (also
 * written to the state's log).
 */
export interface Recorder {
  outcomes: string[];
  quests: QuestChange[];
  /** Quests that became available during this turn, for the acceptance prompts. */
  madeAvailable: string[];
  logs: LogEntry[];
}

export function newRecorder(): Recorder {
  return { outcomes: [], quests: [], madeAvailable: [], logs: [] };
}

export function addLog(state: SessionState, recorder: Recorder, entry: LogEntry): void {
  state.log.push(entry);
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
  recorder.logs.push(entry);
}
