import ivm from "isolated-vm";
import type { ScriptLog, ScriptOutcome, ScriptPhaseInfo } from "../engine/ports.ts";
import { parseScript } from "../world/script/inspect.ts";
import { PRELUDE } from "./prelude.ts";
import {
  LOG_CAP_BYTES,
  memoryLimitMb,
  PHASE_BUDGET_MS,
  type PhaseAccount,
  type Ran,
  type Reply,
  type Request,
  type WireCall,
  wallLimitMs,
} from "./protocol.ts";

/**
 * The sandbox child process: owns the isolates, so that a V8 abort on a huge
 * allocation kills this process and not the engine. One isolate and one
 * context per phase, reused by the phase's scripts (prelude.ts resets it
 * between them). Requests are handled one at a time, in order, so when this
 * process dies the host knows which call was running: the only one it had
 * not answered.
 *
 * Time: a call may use the phase's remaining CPU budget, measured as this
 * process's CPU time (getrusage), not `isolate.cpuTime`: isolated-vm's prebuilt
 * Linux binaries measure that with a steady (wall) clock while the isolate
 * runs, so on a busy machine it charged a script for the time it waited for a
 * core, and the same game came out differently under load. V8 can only stop
 * a script by wall-clock time, so a call gets a wall limit; when that limit
 * hits before the CPU budget is spent (a busy machine), the call is answered
 * `retry`, uncharged, and the host sends it again with a longer wall limit.
 * The script is deterministic, so a rerun gives the same result; only the
 * host's wall-clock ceiling per phase (a stuck machine) ends it otherwise.
 */

/** The instant `Date` shows at tick 0; each tick adds one minute, so time stays a pure function of the tick. */
const EPOCH_MS = Date.UTC(2000, 0, 1);

/** Inlined by bundleChild; when the child runs through tsx instead, built here. */
declare const __TF_CHECK_BUNDLE__: string | undefined;
const CHECK_BUNDLE =
  typeof __TF_CHECK_BUNDLE__ === "string" ? __TF_CHECK_BUNDLE__ : (await import("./bundle.ts")).bundleCheck();

interface PhaseState {
  info: ScriptPhaseInfo;
  /** The isolate's memory limit, MB. */
  limit: number;
  isolate: ivm.Isolate;
  context: ivm.Context | null;
  driver: ivm.Reference | null;
  /** The trigger-map version the context holds (0: none). */
  triggers: number;
  /** The known-map version the context holds (0: none). */
  known: number;
  /** The version of the held snapshot fields the context holds (0: none). */
  parts: number;
  /** Whose storage the context holds, and after how many of its deltas (store 0: none). */
  held: { store: number; sent: number };
}

/** What the running call collects from the log callback. */
interface CallLogs {
  logs: ScriptLog[];
  bytes: number;
}

/** The last trigger map received, as JSON, and its version: made once, and again only when a call brings a new map. */
let triggersJson = "{}";
let triggersVersion = 0;
/** The last known map received (JSON) and its version, kept the same way. */
let knownJson = "{}";
let knownVersion = 0;
/** The known map parsed, made when flips first arrive for it (null: not made since the map last crossed). */
let knownFlags: Record<string, boolean> | null = null;
/** The held snapshot fields (WireCall.parts) as JSON text by name, the object of all of them as JSON, and its version. */
const partTexts = new Map<string, string>();
let partsJson = "{}";
let partsVersion = 0;
let current: CallLogs | null = null;
/** Contexts opened by this process so far (each reply says how many its request opened). */
let contextsOpened = 0;
/** Trigger maps copied into a context so far (each reply says how many its request copied). */
let mapsEntered = 0;
/** Script texts by the id the host sent each under (WireCall.scriptId). */
const scripts = new Map<number, string>();

const phases = new Map<number, PhaseState>();

/**
 * Isolates (with their hardened context) of ended phases, kept for the next
 * phase with the same memory limit: creating them is most of a phase's fixed
 * cost. A context is handed on only in the state every script leaves it in
 * (reset to its baseline, built-ins frozen), so the next phase, of this
 * session or another, sees no more of the last one than a script sees of the
 * script before it. It keeps its copy of the last session's storage: a phase
 * of that session goes on from it (only changes cross), and any other call
 * must bring storage whole, which replaces it. It keeps the trigger map it
 * holds too (as text, parsed afresh for each script that reads it) and the
 * frozen known map: the next phase's first call sends either only when the
 * process has received a newer version since.
 */
const spares: PhaseState[] = [];
const SPARES = 2;

/**
 * When no phase has been open for this long, the spares are disposed: an idle server's script
 * process then holds no isolate (each kept one is some 5 MB: its heap, the check bundle and the
 * prelude compiled), and the next phase pays for a new one (tens of ms), as after a crash.
 */
const SPARES_IDLE_MS = 10_000;
let sparesTimer: NodeJS.Timeout | undefined;

function dropSparesWhenIdle(): void {
  clearTimeout(sparesTimer);
  sparesTimer = undefined;
  if (phases.size > 0 || spares.length === 0) return;
  sparesTimer = setTimeout(() => {
    sparesTimer = undefined;
    if (phases.size > 0) return;
    for (const state of spares.splice(0)) if (!state.isolate.isDisposed) state.isolate.dispose();
  }, SPARES_IDLE_MS);
  sparesTimer.unref();
}

function begin(phaseId: number, info: ScriptPhaseInfo, store = 0): PhaseState {
  end(phaseId);
  clearTimeout(sparesTimer);
  sparesTimer = undefined;
  const limit = memoryLimitMb(info.triggerSetBytes);
  const usable = (s: PhaseState) => s.limit === limit && !s.isolate.isDisposed && s.context !== null;
  // The spare holding this session's storage, if one does: its storage need not cross again.
  // Else one holding nothing, else the one idle longest.
  let spare = spares.findIndex((s) => usable(s) && store !== 0 && s.held.store === store);
  if (spare < 0) spare = spares.findIndex((s) => usable(s) && s.held.store === 0);
  if (spare < 0) spare = spares.findIndex(usable);
  if (spare >= 0) {
    const [state] = spares.splice(spare, 1) as [PhaseState];
    state.info = info;
    // It keeps the trigger map it holds (`state.triggers`, see `spares`): sent again only when stale.
    phases.set(phaseId, state);
    return state;
  }
  const isolate = new ivm.Isolate({ memoryLimit: limit });
  const state: PhaseState = {
    info,
    limit,
    isolate,
    context: null,
    driver: null,
    triggers: 0,
    known: 0,
    parts: 0,
    held: { store: 0, sent: 0 },
  };
  phases.set(phaseId, state);
  openContext(state);
  return state;
}

function end(phaseId: number): void {
  const state = phases.get(phaseId);
  phases.delete(phaseId);
  if (!state || state.isolate.isDisposed) {
    dropSparesWhenIdle();
    return;
  }
  if (state.context !== null && spares.length < SPARES) {
    // The reset after the phase's last script runs now, off the turn, so that it is never charged
    // to the next phase's first script (of another session, maybe): a context is kept only reset.
    try {
      if ((state.driver as ivm.Reference).applySync(undefined, [2], { timeout: 1000 }) === true)
        closeContext(state);
    } catch {
      if (!state.isolate.isDisposed) closeContext(state);
    }
  }
  if (!state.isolate.isDisposed) {
    if (state.context !== null && spares.length < SPARES) spares.push(state);
    else state.isolate.dispose();
  }
  dropSparesWhenIdle();
}

/** A new hardened context for the phase (the check bundle, then the prelude); answers false when the isolate is gone. */
function openContext(state: PhaseState): void {
  contextsOpened++;
  const context = state.isolate.createContextSync();
  context.global.setSync(
    "__tfLog",
    new ivm.Callback((level: unknown, text: unknown) => capture(level, text)),
  );
  state.isolate.compileScriptSync(CHECK_BUNDLE, { filename: "taleforge-check.js" }).runSync(context, {
    timeout: 5000,
  });
  state.driver = state.isolate
    .compileScriptSync(PRELUDE, { filename: "taleforge-prelude.js" })
    .runSync(context, { timeout: 5000, reference: true }) as ivm.Reference;
  state.context = context;
  state.triggers = 0;
  state.known = 0;
  state.parts = 0;
  state.held = { store: 0, sent: 0 };
  // One empty run compiles the prelude's functions now, so that the first script is not charged for it.
  const driver = state.driver;
  driver.applySync(undefined, [0, WARM_UP, "{}", "", undefined, 0, 1, 2, 3, 4, false, undefined], {
    timeout: 5000,
  });
  driver.applySync(undefined, [1], { timeout: 5000 });
  driver.applySync(undefined, [2], { timeout: 5000 });
}

const WARM_UP = JSON.stringify({
  snapshot: null,
  storage: { full: true, set: {}, del: [], order: [] },
  effects: [],
  info: { engineVersion: 0, semanticVersion: "" },
});

function closeContext(state: PhaseState): void {
  if (!state.isolate.isDisposed) {
    state.driver?.release();
    state.context?.release();
  }
  state.driver = null;
  state.context = null;
}

const LEVELS = new Set(["log", "info", "warn", "error"]);

/** Keeps a log line while the phase is under its cap; answers whether more lines are welcome. */
function capture(level: unknown, text: unknown): boolean {
  const call = current;
  if (!call || call.bytes > LOG_CAP_BYTES) return false;
  const message = String(text);
  const bytes = Buffer.byteLength(message);
  const kind = (typeof level === "string" && LEVELS.has(level) ? level : "log") as ScriptLog["level"];
  if (call.bytes + bytes > LOG_CAP_BYTES) {
    // Past the cap for the rest of the phase: the host carries the count to the next call.
    call.bytes = LOG_CAP_BYTES + 1;
    call.logs.push({
      level: "warn",
      message: `log output truncated: scripts of this phase may log ${LOG_CAP_BYTES} bytes in all`,
    });
    return false;
  }
  call.bytes += bytes;
  call.logs.push({ level: kind, message });
  return true;
}

type Failure = Extract<ScriptOutcome, { status: "error" }>["failure"];
type RanBody = Omit<Ran, "id" | "type" | "opened" | "mapsEntered">;

function failed(
  failure: Failure,
  message: string,
  logs: ScriptLog[],
  elapsedMs: number,
  line: number | null = null,
  column: number | null = null,
): ScriptOutcome {
  return { status: "error", failure, message, line, column, logs, elapsedMs };
}

/** parseScript's verdict per script text: the same scripts run every turn. */
const syntax = new Map<string, ReturnType<typeof parseScript>>();

function parsed(script: string): ReturnType<typeof parseScript> {
  let verdict = syntax.get(script);
  if (verdict === undefined) {
    if (syntax.size >= 2000) syntax.clear();
    verdict = parseScript(script);
    syntax.set(script, verdict);
  }
  return verdict;
}

function run(phaseId: number, call: WireCall, account: PhaseAccount): RanBody {
  // Kept before anything can fail: the host sends a map or a script once and counts on the child holding it.
  if (call.clearScripts === true) scripts.clear();
  if (call.script !== undefined) scripts.set(call.scriptId, call.script);
  if (call.triggers !== undefined) {
    triggersJson = JSON.stringify(call.triggers);
    triggersVersion++;
  }
  if (call.known !== undefined) {
    knownJson = call.known;
    knownFlags = null;
    knownVersion++;
  }
  if (call.knownFlips !== undefined) {
    knownFlags ??= JSON.parse(knownJson) as Record<string, boolean>;
    // By definition, so that an entity named `__proto__` stays an own flag.
    for (const [name, flag] of Object.entries(call.knownFlips)) {
      if (Object.hasOwn(knownFlags, name))
        Object.defineProperty(knownFlags, name, {
          value: flag,
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    knownJson = JSON.stringify(knownFlags);
    knownVersion++;
  }
  if (call.parts !== undefined) {
    for (const [name, text] of Object.entries(call.parts)) partTexts.set(name, text);
    let json = "";
    for (const [name, text] of partTexts) json += `${json === "" ? "" : ","}${JSON.stringify(name)}:${text}`;
    partsJson = `{${json}}`;
    partsVersion++;
  }
  const source = scripts.get(call.scriptId);
  // The host sends each text before its first use on this process, and requests arrive in order.
  if (source === undefined) throw new Error(`the sandbox process was not sent script ${call.scriptId}`);
  const logs: ScriptLog[] = [];
  const body = (outcome: ScriptOutcome, extra: Partial<RanBody> = {}): RanBody => ({
    outcome,
    cpuMs: 0,
    wallMs: 0,
    logBytes: account.logBytes,
    storageChanges: null,
    fresh: false,
    retry: false,
    ...extra,
  });
  // The phase's first call opens it here, on the idle context holding its storage when one does.
  // A phase this process has not seen otherwise (its first process died): rebuilt, with no storage yet.
  let state = phases.get(phaseId);
  let fresh = false;
  if (!state) {
    state = begin(phaseId, account.info, call.first === true ? call.store : 0);
    fresh = call.first !== true;
  }
  if (state.isolate.isDisposed) {
    return body(failed("memory", "the phase's isolate was terminated", logs, 0), { fresh: true });
  }
  const syntaxVerdict = parsed(source);
  if (!syntaxVerdict.ok) {
    const { message, line, column } = syntaxVerdict.error;
    // The storage delta of a call that does not run is not applied: the next call sends storage whole.
    return body(failed("syntax", message, logs, 0, line, column), { fresh: true });
  }
  const left = PHASE_BUDGET_MS - account.cpuMs;
  const wall = wallLimitMs(account);
  if (left <= 0) {
    return body(failed("budget", "the phase's 500 ms script budget is used up", logs, 0), { fresh: true });
  }
  // The phase's wall-clock ceiling is spent (the host checks it first): the machine's, so not run and not charged.
  if (wall <= 0) return body(failed("stalled", "retry", logs, 0), { fresh: true, retry: true });
  if (!state.context) {
    openContext(state);
    fresh = true;
  }
  // The context lost its storage (new context) or holds other storage than the delta was made
  // against (another session's, or an older copy): ask for everything again.
  const holds = state.held.store === call.store && state.held.sent === call.storeBase;
  if (!call.fullStorage && (fresh || !holds))
    return body(failed("runtime", "retry", logs, 0), { fresh: true, retry: true });
  const { isolate } = state;
  const [s0, s1, s2, s3] = seedWords(`${state.info.seed}:${state.info.tick}:${call.trigger}`);
  const now = EPOCH_MS + state.info.tick * 60_000;
  const logOpen = account.logBytes <= LOG_CAP_BYTES;
  current = { logs, bytes: account.logBytes };
  // This process's CPU time: the script's run and what it asks of the process (its log lines), and
  // V8's helper threads working for it (the collector); never the time spent waiting for a core.
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const cpuMs = () => {
    const { user, system } = process.cpuUsage(cpuStart);
    return (user + system) / 1000;
  };
  const wallLeft = () => Math.max(1, Math.ceil(wall - (performance.now() - wallStart)));
  /** Op 0 on the state's context: the reset after the last script, then this script. */
  const enter = (): unknown => {
    const triggersText = state.triggers === triggersVersion ? undefined : triggersJson;
    if (triggersText !== undefined) mapsEntered++;
    state.triggers = triggersVersion;
    // A context keeps the known map it was given (frozen) across scripts and phases: the same flags.
    const knownText = state.known === knownVersion ? undefined : knownJson;
    state.known = knownVersion;
    const partsText = state.parts === partsVersion ? undefined : partsJson;
    state.parts = partsVersion;
    // From here the context holds this delta applied (op 0 applies it first), whatever the script does.
    state.held = { store: call.store, sent: call.storeBase + 1 };
    return (state.driver as ivm.Reference).applySync(
      undefined,
      [0, call.input, triggersText, source, knownText, now, s0, s1, s2, s3, logOpen, partsText],
      { timeout: wallLeft() },
    );
  };
  try {
    let ran = enter();
    if (ran === "D") {
      // The last script left the context where the reset cannot bring it back: a new one, which
      // holds no storage, so a delta cannot apply (the host sends storage whole).
      closeContext(state);
      openContext(state);
      fresh = true;
      if (!call.fullStorage) return body(failed("runtime", "retry", logs, 0), { fresh: true, retry: true });
      ran = enter();
    }
    const driver = state.driver as ivm.Reference;
    let outcome: ScriptOutcome;
    let storageChanges: string | null = null;
    if (ran !== "") outcome = thrown(String(ran), logs);
    else {
      const text = String(driver.applySync(undefined, [1], { timeout: wallLeft() }));
      if (text.startsWith("E")) outcome = thrown(text, logs);
      else {
        const read = decode(text, logs);
        outcome = read.outcome;
        storageChanges = read.storageChanges;
      }
    }
    const used = cpuMs();
    outcome.elapsedMs = used;
    return body(outcome, {
      cpuMs: used,
      wallMs: performance.now() - wallStart,
      logBytes: current.bytes,
      storageChanges,
      fresh,
    });
  } catch (error) {
    // Only isolated-vm throws here (a script's own throws are read inside the isolate): a timeout or a disposal.
    const used = cpuMs();
    const took = performance.now() - wallStart;
    if (isolate.isDisposed) {
      return body(failed("memory", "the script exceeded the phase's memory limit", logs, used), {
        cpuMs: used,
        wallMs: took,
      });
    }
    // A stopped script may leave half-run state and queued jobs behind: its context goes.
    closeContext(state);
    const message = error instanceof Error ? error.message : String(error);
    if (/timed out/i.test(message)) {
      // Spent only by CPU time: whether the machine was busy never decides it (the wall limit
      // gives a script on a whole core room to use its budget at the first try).
      if (used >= left) {
        return body(
          failed("timeout", "the phase's 500 ms script budget ran out while the script ran", logs, used),
          {
            cpuMs: Math.max(used, left),
            wallMs: took,
            fresh: true,
          },
        );
      }
      // The wall limit hit first: the machine is busy. Not charged; sent again with more wall time
      // (or, past the phase's wall-clock ceiling, ended by the host as the machine's failure).
      return body(failed("timeout", "retry", logs, used), { wallMs: took, fresh: true, retry: true });
    }
    return body(failed("runtime", `the sandbox failed: ${message}`, logs, used), {
      cpuMs: used,
      wallMs: took,
      fresh: true,
    });
  } finally {
    current = null;
  }
}

/** "E" + [s] NUL message NUL line NUL column, from the isolate's describe(). */
function thrown(text: string, logs: ScriptLog[]): ScriptOutcome {
  const [head = "E", message = "uncaught value", line = "", column = ""] = text.split("\u0000");
  const at = (value: string) => (value === "" ? null : Number(value));
  return failed(head === "Es" ? "syntax" : "runtime", message, logs, 0, at(line), at(column));
}

/** Rejected storage: the host answers the storage the script was given (the phase's writes revert, spec 4). */
function decode(text: string, logs: ScriptLog[]): { outcome: ScriptOutcome; storageChanges: string | null } {
  const [flags = "--", storage = "", effects = "[]", triggers = "", reason = ""] = text.split("\u0000");
  const rejected = flags[0] === "r";
  const outcome: ScriptOutcome = {
    status: "ok",
    storage: {},
    storageRejected: rejected,
    effects: JSON.parse(effects),
    skip: flags[1] === "s",
    triggers: triggers === "" ? null : JSON.parse(triggers),
    logs,
    elapsedMs: 0,
  };
  if (rejected) outcome.storageProblem = reason;
  return { outcome, storageChanges: rejected || storage === "" ? null : storage };
}

/** cyrb128: four 32-bit words from a string, to seed sfc32. */
function seedWords(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

function handle(request: Request): Reply {
  try {
    switch (request.type) {
      case "run": {
        const before = contextsOpened;
        const entered = mapsEntered;
        const body = run(request.phaseId, request.call, request.account);
        return {
          id: request.id,
          type: "ran",
          ...body,
          opened: contextsOpened - before,
          mapsEntered: mapsEntered - entered,
        };
      }
      case "end":
        end(request.phaseId);
        return { id: request.id, type: "ended" };
    }
  } catch (error) {
    return {
      id: request.id,
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

process.on("message", (request: Request) => {
  const reply = handle(request);
  process.send?.(reply);
  // The phase's last call (WireCall.last) ends it now, after the answer is out: off the turn, and
  // before any later request is handled, as the `end` request the host no longer sends would.
  if (request.type === "run" && request.call.last === true && reply.type === "ran" && !reply.retry)
    end(request.phaseId);
});
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0, type: "ready" } satisfies Reply);
