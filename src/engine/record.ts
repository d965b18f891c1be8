import type { Outcome } from "./outcome.ts";
import type { LogEntry, SessionState } from "./state.ts";
import type { QuestChange } from "./trace.ts";

/** The log keeps the latest entries only, so a long session's state stays small. */
export const LOG_LIMIT = 1000;
/**
 * The longest text one log entry keeps (script errors, `log()` lines, engine
 * notices), in characters: a script that throws a 12 MB message must not put
 * 12 MB into every save (docs/scripts.md "Limits").
 */
export const LOG_ENTRY_CHARS = 2000;
/** The most text the whole log keeps, in characters; the oldest entries go first. */
export const LOG_TOTAL_CHARS = 256 * 1024;

/**
 * What the steps of one turn report while they run, beside the state they
 * change: outcomes for the narrator, quest changes, and log entries (also
 * written to the state's log).
 */
export interface Recorder {
  outcomes: Outcome[];
  quests: QuestChange[];
  /** Quests that became available during this turn, for the acceptance prompts. */
  madeAvailable: string[];
  logs: LogEntry[];
}

export function newRecorder(): Recorder {
  return { outcomes: [], quests: [], madeAvailable: [], logs: [] };
}

/** Text cut to `limit` characters, saying how much was cut, so that a reader knows it is not whole. */
export function capText(text: string, limit = LOG_ENTRY_CHARS): string {
  if (text.length <= limit) return text;
  // Never split a surrogate pair: a lone half is not valid UTF-16 text.
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut: log entries keep ${limit}]`;
}

export function addLog(state: SessionState, recorder: Recorder, entry: LogEntry): void {
  const capped: LogEntry = { ...entry, message: capText(String(entry.message)) };
  state.log.push(capped);
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
  trimToTotal(state.log);
  recorder.logs.push(capped);
  // One turn's own list is bounded the same way (a script may log in a loop).
  if (recorder.logs.length > LOG_LIMIT) recorder.logs.splice(0, recorder.logs.length - LOG_LIMIT);
  trimToTotal(recorder.logs);
}

/** Drops the oldest entries until the log's text fits LOG_TOTAL_CHARS. */
function trimToTotal(log: LogEntry[]): void {
  let total = 0;
  let keepFrom = log.length;
  while (keepFrom > 0) {
    const size = log[keepFrom - 1]!.message.length;
    if (total + size > LOG_TOTAL_CHARS) break;
    total += size;
    keepFrom -= 1;
  }
  if (keepFrom > 0) log.splice(0, keepFrom);
}
