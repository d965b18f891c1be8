import type { ScriptCall, ScriptOutcome, ScriptPhaseInfo } from "../engine/ports.ts";

/**
 * The JSON messages between the sandbox host (parent) and its child processes,
 * and the limits both sides apply. Every request carries an id; the child
 * answers each with the same id.
 */

/** CPU time of script execution per phase, shared by all its scripts (spec 8). */
export const PHASE_BUDGET_MS = 500;

/**
 * Wall-clock ceiling per phase, by default: the machine's limit, not the script's. A script is
 * judged only by the CPU time it used (the sandbox process's own, so waiting for a core costs it
 * nothing), and a call stopped by its wall limit before it used its budget runs again with more wall
 * time; so a busy machine changes how long a phase takes, never what its scripts do. Only a machine
 * so stuck that a phase's calls take longer than this in all ends the phase, with the failure
 * `stalled`, never `timeout` or `budget`. It bounds how long a game can wait on its scripts (a game
 * never stalls), and is far above what a busy machine needs: a script using its whole budget on a
 * tenth of a core takes about 5 s. HostOptions.stallCeilingMs changes it.
 */
export const PHASE_WALL_CEILING_MS = 60_000;

/** Log text kept per phase; then one truncation notice. */
export const LOG_CAP_BYTES = 64 * 1024;

/** Characters of a script's error message kept (a longer message is cut and marked). */
export const ERROR_MESSAGE_CAP = 4096;

/**
 * Nesting depth of a value written to storage, pushed to `effects` or put in
 * the trigger map by a script (`storage.a = {}` has depth 1). Deeper values
 * are refused at the sandbox boundary, so nothing deeper than this reaches a save.
 */
export const VALUE_MAX_DEPTH = 64;

/** Compact JSON characters of the whole storage object; a script that would grow it past this is refused. */
export const STORAGE_MAX_CHARS = 1024 * 1024;

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
 * Storage as it crosses to the child: the child's isolate keeps a session's
 * storage as JSON text per key, between the scripts of a phase and on into
 * the session's next phases while its context serves them, so a call sends
 * only the keys whose values changed since the child last saw them (`set`,
 * as JSON text), the keys that went away (`del`), and the key order when it
 * changed. `full` replaces everything the child holds.
 */
export interface StorageDelta {
  full: boolean;
  set: Record<string, string>;
  del: string[];
  order: string[] | null;
}

/**
 * A script call as it crosses to the child. `input` is the JSON text the
 * isolate reads (snapshot, effects, info and the storage delta), made once by
 * the host and passed through untouched. The trigger map (hundreds of KB on a
 * large world) is sent once and again only when it changed: a call without
 * `triggers` uses the map the child last received. `fullStorage` says the
 * delta replaces everything the child holds.
 */
export interface WireCall {
  trigger: string;
  /**
   * The script's text, sent once per process: a call whose text the process was already sent
   * under `scriptId` leaves it out (the same scripts run every turn). `clearScripts` says the
   * process drops every text it holds first (the host keeps a bounded number).
   */
  script?: string;
  scriptId: number;
  clearScripts?: true;
  input: string;
  fullStorage: boolean;
  /**
   * Whose storage the delta is against: the host's record of a session's storage on this process
   * (`store`), and how many deltas it had sent before this one (`storeBase`). A delta applies only to
   * a context holding exactly that: any other answers `retry` with `fresh`, and the host sends the
   * storage whole.
   */
  store: number;
  storeBase: number;
  triggers?: ScriptCall["triggers"];
  /**
   * The snapshot's known map (737 flags, about 20 KB of JSON on an at-cap world) as JSON text,
   * sent once and again only when its flags changed: when `input`'s snapshot says `knownHeld`,
   * its `known` is the map the child last received (play changes it a few times a game, while
   * every script call carries it).
   */
  known?: string;
  /**
   * The flags of the known map that changed since the map the process holds, when its names (and
   * their order) stayed the same: play flips a few of the 737 flags at a time.
   */
  knownFlips?: Record<string, boolean>;
  /**
   * Snapshot fields as JSON texts, by name: the long fields (quest and event status, the story
   * text...) whose text changed since the process last received them. `input`'s `heldParts` names
   * the fields the snapshot left out, which the child fills in from the texts it holds.
   */
  parts?: Record<string, string>;
  /**
   * The phase's first call: the child opens the phase with it (there is no `begin` round trip),
   * taking the idle context that holds this call's storage record when one does.
   */
  first?: true;
  /**
   * No other call of the phase follows (the engine's hint): once the call has run (an answer
   * other than `retry`), the child ends the phase right after answering, as an `end` request
   * would, and the host sends no `end`. A later call of the phase opens it again.
   */
  last?: true;
}

/** What the host knows of a phase and sends with each call, so that any child can run it. */
export interface PhaseAccount {
  info: ScriptPhaseInfo;
  /** CPU ms the phase's scripts used so far. */
  cpuMs: number;
  /** Wall ms the phase's calls took so far (retries included). */
  wallMs: number;
  /** The phase's wall-clock ceiling (PHASE_WALL_CEILING_MS unless the host was given another). */
  ceilingMs: number;
  logBytes: number;
  /** Retries of this call after its wall limit hit before its CPU budget ran out (0 first). */
  attempt: number;
}

/**
 * The wall-clock limit of a call: the CPU budget left with a margin (a script running on a whole
 * core uses its budget before the limit hits, so it is stopped at the first try), doubled on every
 * retry (a busy machine gives the script less than a core), never past the phase's wall-clock
 * ceiling.
 */
export function wallLimitMs(account: PhaseAccount): number {
  const left = PHASE_BUDGET_MS - account.cpuMs;
  if (left <= 0) return 0;
  const ceiling = account.ceilingMs - account.wallMs;
  return Math.max(0, Math.min(ceiling, Math.ceil(left * 1.25 + 20) * 2 ** account.attempt));
}

export type Request =
  | { id: number; type: "run"; phaseId: number; call: WireCall; account: PhaseAccount }
  | { id: number; type: "end"; phaseId: number };

/**
 * The answer to a run. `storageChanges` is the JSON text of the storage the
 * script left, as a delta of the storage the child held (only on success);
 * `fresh` says the child lost its copy of the phase's storage (a new
 * context), so the next call must send it whole; `retry` says the call ran
 * out of wall time before its CPU budget (a busy machine) and should be sent
 * again with more wall time: it is not charged. `cpuMs` is the CPU time the
 * sandbox process used for the call (getrusage), never wall time.
 */
export type Ran = {
  id: number;
  type: "ran";
  outcome: ScriptOutcome;
  cpuMs: number;
  wallMs: number;
  logBytes: number;
  storageChanges: string | null;
  fresh: boolean;
  retry: boolean;
  /** Contexts the process opened while handling this call (a new isolate's, or one that replaced a broken context): 0 once warm. */
  opened: number;
  /** Trigger maps the process copied into a context for this call (the map is new to that context): 0 while it holds the current one. */
  mapsEntered: number;
};

export type Reply =
  | { id: number; type: "ready" }
  | Ran
  | { id: number; type: "ended" }
  | { id: number; type: "failed"; message: string };
