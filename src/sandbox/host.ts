import type {
  ScriptCall,
  ScriptHint,
  ScriptOutcome,
  ScriptPhase,
  ScriptPhaseInfo,
  ScriptRunner,
} from "../engine/ports.ts";
import { type Child, childCpuMs, spawnChild, stopChild } from "./process.ts";
import {
  PHASE_BUDGET_MS,
  PHASE_WALL_CEILING_MS,
  type PhaseAccount,
  type Reply,
  type Request,
  type WireCall,
  wallLimitMs,
} from "./protocol.ts";
import { applyChanges, StorageMirror } from "./storage-sync.ts";

/**
 * The parent side of the sandbox: a pool of child processes that own the
 * isolates (src/sandbox/child.ts). One host can serve many sessions at once:
 *
 * - A phase is placed on the least busy process and keeps there. Each
 *   process runs one call at a time, so when it dies (a V8 abort on a huge
 *   allocation) or overruns its watchdog, the call it was running is the one
 *   that caused it: only that call fails (`memory` or `timeout`) and only its
 *   phase ends. Every other phase that lived there moves to the replacement
 *   process at its next call, with its budget, log count and storage intact,
 *   so its results do not change.
 * - Budgets are CPU time of the sandbox process, carried by the host
 *   (PhaseAccount), so waiting behind another session's calls and sharing the
 *   cores with other work never uses a script's budget, and a script's outcome
 *   depends on its world, input and seed, not on how busy the machine is. A
 *   wall-clock ceiling per phase (60 s) bounds how long a stuck machine can
 *   hold a game; hitting it is the machine's failure (`stalled`).
 */

export interface HostOptions {
  /**
   * Extra time over a call's wall limit before the host looks at the process: it is killed as hung
   * (the script's `timeout`) only if it used that much CPU time without answering; one that got
   * less (a busy machine) is waited for, up to the phase's wall-clock ceiling.
   */
  watchdogMarginMs?: number;
  /**
   * The wall-clock ceiling of a phase, ms (default PHASE_WALL_CEILING_MS, 60 s): the machine's limit,
   * hit only when a machine gives the phase's scripts so little of a core that they do not finish in
   * it; the script then fails with `stalled` and the phase's later scripts do not run.
   */
  stallCeilingMs?: number;
  /** How long a process may take to start. */
  startTimeoutMs?: number;
  /** Sandbox processes in the pool (default 1). A server running many games may use one per core. */
  processes?: number;
}

interface Slot {
  child: Child | null;
  queue: Promise<unknown>;
  /** Open phases placed here. */
  phases: number;
  /** What this slot's process holds of each recent session's storage, by session id (most recent last). */
  stores: Map<string, StoreRecord>;
}

/**
 * The host's picture of one session's storage in a slot's process: kept from
 * phase to phase, so that storage a session's scripts leave alone crosses
 * once, not at every phase. `sent` counts the deltas sent against it (the
 * child checks its context holds the same count before applying one).
 */
interface StoreRecord {
  id: number;
  mirror: StorageMirror;
  sent: number;
}

/** Script texts a process keeps; past this the host starts again (each text then crosses once more). */
const SCRIPTS_PER_PROCESS = 2000;

/** Sessions whose storage picture a slot keeps; the oldest goes first (its next phase sends storage whole). */
const STORES_PER_SLOT = 64;

export class SandboxHost implements ScriptRunner {
  private readonly slots: Slot[];
  private nextId = 1;
  private nextPhase = 1;
  private nextStore = 1;
  /** Ids of script texts sent to the processes (WireCall.scriptId). */
  nextScriptId = 1;
  private closed = false;
  /** Set once when a process cannot start at all (isolated-vm's native module missing): every phase then fails at once with it. */
  private unavailable: Error | null = null;
  readonly watchdogMarginMs: number;
  readonly stallCeilingMs: number;
  readonly startTimeoutMs: number;
  /**
   * Counts for benchmarks and tests: requests sent to the processes (each one IPC round trip), and
   * contexts the processes opened (a new isolate's, or a replacement for a broken one: tens of ms
   * each, so a warm sandbox opens none); the wall time the host waited for script runs' answers, and
   * the part of it the processes spent in them (the rest is the IPC round trips and the wait for a core);
   * and the trigger maps copied into a context (a context keeps the map it holds until a newer one
   * arrives, across phases and sessions, so a warm sandbox copies one only when the map changed).
   */
  readonly stats = { requests: 0, contextsOpened: 0, runWaitMs: 0, runChildMs: 0, triggerMapsEntered: 0 };

  constructor(options: HostOptions = {}) {
    this.watchdogMarginMs = options.watchdogMarginMs ?? 1000;
    this.stallCeilingMs = Math.max(1, options.stallCeilingMs ?? PHASE_WALL_CEILING_MS);
    this.startTimeoutMs = options.startTimeoutMs ?? 20_000;
    const count = Math.max(1, Math.min(64, Math.floor(options.processes ?? 1)));
    this.slots = Array.from({ length: count }, () => ({
      child: null,
      queue: Promise.resolve(),
      phases: 0,
      stores: new Map<string, StoreRecord>(),
    }));
  }

  async beginPhase(info: ScriptPhaseInfo): Promise<ScriptPhase> {
    if (this.closed) throw new Error("the sandbox is closed");
    if (this.unavailable) throw this.unavailable;
    const phaseId = this.nextPhase++;
    const slot = this.slots.reduce((best, s) => (s.phases < best.phases ? s : best));
    slot.phases++;
    try {
      // No round trip: the phase opens in the child with its first call (WireCall.first).
      return await this.serial(slot, async () => {
        const child = await this.ensureChild(slot);
        const store = this.storeOf(slot, info.sessionId);
        return new HostPhase(this, slot, child, phaseId, info, store);
      });
    } catch (error) {
      slot.phases--;
      throw error;
    }
  }

  /**
   * Starts the first process now rather than at the first script, so that a
   * host can overlap its start-up (about 100 ms) with other work, such as the
   * opening narration. Failures surface at the first phase, as usual; when
   * the sandbox cannot run at all (isolated-vm's native module is missing),
   * `onUnavailable` hears it once, in plain words, to tell the player at start.
   */
  warm(onUnavailable?: (message: string) => void): void {
    if (this.closed) return;
    const slot = this.slots[0] as Slot;
    this.serial(slot, async () => {
      // close() may have come first; a process started after it would outlive the host.
      if (!this.closed) await this.ensureChild(slot);
    }).catch(() => {
      if (this.unavailable && onUnavailable) onUnavailable(this.unavailable.message);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const children = this.slots.map((slot) => slot.child);
    for (const slot of this.slots) slot.child = null;
    await Promise.all(children.map((child) => (child ? stopChild(child) : undefined)));
  }

  /**
   * The process ids of the sandbox's live processes: for an operator who confines their CPU time
   * (bench/cpu-budget.ts), and for tests that stop one to play a busy machine.
   */
  processIds(): number[] {
    return this.slots.flatMap((slot) =>
      slot.child?.alive && slot.child.process.pid !== undefined ? [slot.child.process.pid] : [],
    );
  }

  /** The slot's storage record of a session, made when there is none (its first delta is then whole). */
  private storeOf(slot: Slot, sessionId: string): StoreRecord {
    const key = String(sessionId);
    let store = slot.stores.get(key);
    if (store) slot.stores.delete(key);
    else store = { id: this.nextStore++, mirror: new StorageMirror(), sent: 0 };
    slot.stores.set(key, store);
    if (slot.stores.size > STORES_PER_SLOT) slot.stores.delete(slot.stores.keys().next().value as string);
    return store;
  }

  /** Runs `task` after every earlier task of the slot, so a process never holds two calls at once. */
  serial<T>(slot: Slot, task: () => Promise<T>): Promise<T> {
    const result = slot.queue.then(task, task);
    slot.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Sends one request; null when the process died or the watchdog fired first. The watchdog fires
   * after `timeoutMs`; the process is then killed as hung only when it used `timeoutMs` of CPU time
   * since the request without answering (it had the time to stop the script itself and did not), or
   * once `stallMs` have passed (a machine too busy to run it). Else it is waited for a while longer.
   */
  request(child: Child, request: Request, timeoutMs: number, stallMs = timeoutMs): Promise<Reply | null> {
    const id = this.nextId++;
    this.stats.requests++;
    return new Promise((resolve) => {
      if (!child.alive) {
        resolve(null);
        return;
      }
      const sent = performance.now();
      const cpuAtSend = childCpuMs(child);
      const expire = (): number => {
        const waited = performance.now() - sent;
        const now = childCpuMs(child);
        // Without the process's CPU time (not Linux), every overrun counts as the machine's until the ceiling.
        const hung = cpuAtSend !== null && now !== null && now - cpuAtSend >= timeoutMs;
        if (!hung && waited < stallMs) return Math.min(stallMs - waited, timeoutMs);
        child.pending.delete(id);
        child.watchdogFired = hung ? "hung" : "stalled";
        // Dead from now on: its exit event comes later, and the next call must not be sent to it.
        child.alive = false;
        child.process.kill("SIGKILL");
        resolve(null);
        return 0;
      };
      const watchdog = watchdogOf(child);
      // The process's watchdog serves its one call in flight (serial() keeps it to one); a second
      // request at once, which the host never sends, would get a timer of its own.
      let timer: NodeJS.Timeout | null = null;
      const fire = () => {
        const more = expire();
        if (more > 0) timer = setTimeout(fire, more);
      };
      const own = watchdog.busy;
      if (own) timer = setTimeout(fire, timeoutMs);
      else watchdog.arm(timeoutMs, expire);
      child.pending.set(id, {
        resolve: (reply) => {
          if (!own) watchdog.disarm();
          else if (timer !== null) clearTimeout(timer);
          resolve(reply);
        },
      });
      request.id = id;
      child.process.send(request);
    });
  }

  /** The slot's live process, started when there is none (at first use, or after one died). */
  async ensureChild(slot: Slot): Promise<Child> {
    if (this.unavailable) throw this.unavailable;
    if (slot.child?.alive) {
      await slot.child.ready;
      return slot.child;
    }
    const child = spawnChild();
    slot.child = child;
    let timer: NodeJS.Timeout | undefined;
    const spawned = performance.now();
    const timeout = new Promise<never>((_, reject) => {
      // A process that used its start time in CPU without getting ready is broken; one the machine
      // did not give that time (a busy machine) is waited for, up to the phase's wall-clock ceiling
      // (never less than the start time).
      const most = Math.max(this.startTimeoutMs, this.stallCeilingMs);
      const check = () => {
        const waited = performance.now() - spawned;
        const used = childCpuMs(child);
        const broken = used !== null && used >= this.startTimeoutMs;
        if (!broken && waited < most) {
          timer = setTimeout(check, Math.min(this.startTimeoutMs, most - waited));
          return;
        }
        child.process.kill("SIGKILL");
        reject(
          broken
            ? new Error("the sandbox process did not start in time")
            : new StalledStart(
                `the machine was too busy to start the sandbox process within ${Math.round(most / 1000)} s`,
              ),
        );
      };
      timer = setTimeout(check, this.startTimeoutMs);
    });
    try {
      await Promise.race([child.ready, timeout]);
    } catch (error) {
      if (child.missingNative) this.unavailable = new Error(child.missingNative);
      throw this.unavailable ?? error;
    } finally {
      clearTimeout(timer);
    }
    return child;
  }

  /** Releases a phase's place in its slot. */
  release(slot: Slot): void {
    slot.phases = Math.max(0, slot.phases - 1);
  }
}

/**
 * A process's watchdog: one timer, kept from call to call, instead of a `setTimeout` and a
 * `clearTimeout` per request (each request's limit differs, so each made and dropped a timer list of
 * its own: a cost on every script call). The timer is re-armed only when a call's deadline comes
 * before the one it is set for; when it fires early for a call that is still within its deadline
 * it is set again for the rest. It holds Node open (ref'd) only while a call is out, as the
 * per-request timer did (the process and its channel are unref'd).
 */
class Watchdog {
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (performance.now() time); Infinity when it is not set. */
  private firesAt = Number.POSITIVE_INFINITY;
  private deadline = Number.POSITIVE_INFINITY;
  /** Called when the deadline passes: answers how many ms more to wait (0: it is done). */
  private expire: (() => number) | null = null;

  get busy(): boolean {
    return this.expire !== null;
  }

  /** Watches a call that must answer within `timeoutMs`; answers null (the caller disarms it on the reply). */
  arm(timeoutMs: number, expire: () => number): null {
    this.deadline = performance.now() + timeoutMs;
    this.expire = expire;
    if (this.timer === null || this.firesAt > this.deadline) this.set(timeoutMs);
    else this.timer.ref();
    return null;
  }

  disarm(): void {
    this.expire = null;
    this.deadline = Number.POSITIVE_INFINITY;
    this.timer?.unref();
  }

  private set(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.firesAt = performance.now() + ms;
    this.timer = setTimeout(() => this.fire(), ms);
  }

  private fire(): void {
    this.timer = null;
    this.firesAt = Number.POSITIVE_INFINITY;
    const expire = this.expire;
    if (expire === null) return;
    const left = this.deadline - performance.now();
    if (left > 0) {
      this.set(Math.ceil(left));
      return;
    }
    const more = expire();
    if (more > 0 && this.expire === expire) {
      this.deadline = performance.now() + more;
      this.set(Math.ceil(more));
      return;
    }
    if (this.expire === expire) this.disarm();
  }
}

const watchdogs = new WeakMap<Child, Watchdog>();

function watchdogOf(child: Child): Watchdog {
  let watchdog = watchdogs.get(child);
  if (watchdog === undefined) {
    watchdog = new Watchdog();
    watchdogs.set(child, watchdog);
  }
  return watchdog;
}

class HostPhase implements ScriptPhase {
  /** The phase ended in its own failure (memory, or a process it hung): later calls do not run. */
  private terminated: "memory" | null = null;
  private ended = false;
  /** Set once a call of the phase has reached the child: later calls need not open it. */
  private opened = false;
  /** The child ended the phase after its last call (WireCall.last): `end()` sends nothing. */
  private closedInChild = false;
  private cpuMs = 0;
  private wallMs = 0;
  private logBytes = 0;

  constructor(
    private readonly host: SandboxHost,
    private readonly slot: Slot,
    /** The process holding this phase's isolate; a new one after that one died. */
    private child: Child,
    private readonly phaseId: number,
    private readonly info: ScriptPhaseInfo,
    /** The session's storage as the process holds it, shared with the session's other phases on this slot. */
    private readonly store: StoreRecord,
  ) {}

  private get mirror(): StorageMirror {
    return this.store.mirror;
  }

  run(call: ScriptCall, hint?: ScriptHint): Promise<ScriptOutcome> {
    return this.host.serial(this.slot, async () => {
      if (this.ended) return stopped("runtime", "the phase has ended", 0);
      if (this.terminated) return stopped("memory", "the phase's isolate was terminated", 0);
      if (this.cpuMs >= PHASE_BUDGET_MS) {
        return stopped("budget", "the phase's 500 ms script budget is used up", 0);
      }
      if (this.wallMs >= this.host.stallCeilingMs) return stalled(this.host.stallCeilingMs, 0);
      for (let attempt = 0; ; attempt++) {
        let child: Child;
        try {
          child = await this.host.ensureChild(this.slot);
        } catch (error) {
          if (error instanceof StalledStart) {
            this.wallMs = this.host.stallCeilingMs;
            return stalled(this.host.stallCeilingMs, 0);
          }
          this.terminated = "memory";
          return stopped("runtime", `the sandbox could not restart: ${messageOf(error)}`, 0);
        }
        if (child !== this.child) {
          // Moved to a new process (the last one died in another phase's call): it holds none of our storage.
          this.child = child;
          this.mirror.forget();
        }
        const account: PhaseAccount = {
          info: this.info,
          cpuMs: this.cpuMs,
          wallMs: this.wallMs,
          ceilingMs: this.host.stallCeilingMs,
          logBytes: this.logBytes,
          attempt,
        };
        const wire = this.wire(call, child);
        if (hint?.last === true) wire.last = true;
        const started = performance.now();
        const reply = await this.host.request(
          child,
          { id: 0, type: "run", phaseId: this.phaseId, call: wire, account },
          wallLimitMs(account) + this.host.watchdogMarginMs,
          Math.max(0, this.host.stallCeilingMs - this.wallMs),
        );
        const elapsed = performance.now() - started;
        // The phase's wall time as the host waited for it (a busy machine's slow start of a call too).
        this.wallMs += elapsed;
        if (reply !== null) this.opened = true;
        // Ended in the child exactly when it answered a last call with anything but `retry`.
        this.closedInChild = reply?.type === "ran" && !reply.retry && wire.last === true;
        if (reply?.type === "ran") {
          this.host.stats.contextsOpened += reply.opened;
          this.host.stats.triggerMapsEntered += reply.mapsEntered;
          this.host.stats.runWaitMs += elapsed;
          this.host.stats.runChildMs += reply.wallMs;
          if (reply.fresh) this.mirror.forget();
          if (reply.retry) {
            // Not charged: the call runs again with more wall time, as long as the phase has some.
            if (this.wallMs < this.host.stallCeilingMs) continue;
            return stalled(this.host.stallCeilingMs, elapsed);
          }
          this.cpuMs += reply.cpuMs;
          this.logBytes = reply.logBytes;
          const outcome = reply.outcome;
          if (outcome.status === "error" && outcome.failure === "memory") this.terminated = "memory";
          if (outcome.status === "error" && outcome.failure === "timeout") this.cpuMs = PHASE_BUDGET_MS;
          if (outcome.status === "ok") {
            outcome.storage = applyChanges(call.storage, reply.storageChanges, this.mirror);
          }
          return outcome;
        }
        // No answer: this call was the one running when the process died or hung, so it is the cause
        // (unless the machine gave it too little CPU to answer: the machine's failure, `stalled`).
        this.mirror.forget();
        if (reply?.type === "failed") {
          this.terminated = "memory";
          return stopped("runtime", reply.message, elapsed);
        }
        if (child.watchdogFired === "stalled") return stalled(this.host.stallCeilingMs, elapsed);
        if (child.watchdogFired === "hung") {
          this.cpuMs = PHASE_BUDGET_MS;
          return stopped(
            "timeout",
            "the script did not stop within the phase's budget; its process was killed",
            elapsed,
          );
        }
        this.terminated = "memory";
        return stopped("memory", "the script exceeded the memory limit; its process was killed", elapsed);
      }
    });
  }

  /** The call as it crosses: storage as a delta of what the process holds, the trigger map only when it changed. */
  private wire(call: ScriptCall, child: Child): WireCall {
    const storage = this.mirror.delta(call.storage);
    // The known map crosses when its flags differ from the map the process holds (only the flags
    // that changed, when its names are the same); else the snapshot keeps the key in its place and
    // says the child fills it in.
    const known = flagsOf(call.snapshot);
    let knownText: string | undefined;
    let knownFlips: Record<string, boolean> | undefined;
    if (known !== null) {
      const flips = flagChanges(known, child.sentKnown);
      if (flips === null) knownText = JSON.stringify(known);
      else if (flips !== NO_FLIPS) knownFlips = flips;
      child.sentKnown = known;
    }
    const held = holdParts(call.snapshot, known !== null, child.sentParts);
    // Written as text: each snapshot field was stringified once by holdParts already.
    const input = `{"snapshot":${held.snapshot},"knownHeld":${known !== null},"heldParts":${JSON.stringify(held.names)},"storage":${JSON.stringify(storage)},"effects":${JSON.stringify(call.effects)},"info":${JSON.stringify({ engineVersion: call.engineVersion, semanticVersion: call.semanticVersion })}}`;
    let scriptId = child.sentScripts.get(call.script);
    let script: string | undefined;
    let clearScripts = false;
    if (scriptId === undefined) {
      if (child.sentScripts.size >= SCRIPTS_PER_PROCESS) {
        child.sentScripts.clear();
        clearScripts = true;
      }
      scriptId = this.host.nextScriptId++;
      child.sentScripts.set(call.script, scriptId);
      script = call.script;
    }
    const wire: WireCall = {
      trigger: call.trigger,
      scriptId,
      input,
      fullStorage: storage.full,
      store: this.store.id,
      storeBase: this.store.sent++,
    };
    // The engine never changes a trigger map in place (an edit is a new object), so identity tells
    // "unchanged": the same map serves every phase and turn until a script edits it.
    if (call.triggers !== child.sentTriggers) {
      child.sentTriggers = call.triggers;
      wire.triggers = call.triggers;
    }
    if (script !== undefined) wire.script = script;
    if (clearScripts) wire.clearScripts = true;
    if (knownText !== undefined) wire.known = knownText;
    if (knownFlips !== undefined) wire.knownFlips = knownFlips;
    if (held.parts !== null) wire.parts = held.parts;
    if (!this.opened) wire.first = true;
    return wire;
  }

  /**
   * Queues the phase's end and answers at once: the turn need not wait for the child's reply (a
   * round trip), since every later request of the slot is sent after it and the child handles
   * requests in order, so the next phase still finds this one ended.
   */
  end(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    this.host.release(this.slot);
    this.host
      .serial(this.slot, async () => {
        // A phase none of whose calls reached the child was never opened there.
        if (this.opened && !this.closedInChild && this.child.alive)
          await this.host.request(this.child, { id: 0, type: "end", phaseId: this.phaseId }, 5000);
      })
      .catch(() => undefined);
    return Promise.resolve();
  }
}

/** The snapshot's known map when it is one of flags only (as the engine makes it); null sends the snapshot as it is. */
function flagsOf(snapshot: ScriptCall["snapshot"]): Record<string, boolean> | null {
  const known = (snapshot as { known?: unknown } | null)?.known;
  if (known === null || typeof known !== "object" || Array.isArray(known)) return null;
  for (const value of Object.values(known)) if (typeof value !== "boolean") return null;
  return known as Record<string, boolean>;
}

const NO_FLIPS: Record<string, boolean> = Object.freeze({}) as Record<string, boolean>;

/**
 * The flags of `a` that differ from `b` when both have the same names in the same order (NO_FLIPS
 * when none differ); null when the names differ or `b` is none, and the map must cross whole.
 */
function flagChanges(
  a: Record<string, boolean>,
  b: Record<string, boolean> | null,
): Record<string, boolean> | null {
  if (b === null) return null;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return null;
  let flips: Record<string, boolean> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== others[i]) return null;
    if (a[key] !== b[key]) {
      flips ??= {};
      define(flips, key, a[key]);
    }
  }
  return flips ?? NO_FLIPS;
}

/**
 * Snapshot fields (other than the known map) at least this long as JSON are held by the process:
 * sent when their text differs from the one it last received, else named in the call's `heldParts`
 * and filled in by the child. On an at-cap world the quest and event status and the story text are
 * most of a call and change a few times a game; shorter fields cross inline (naming one costs
 * about as much as sending it).
 */
const HELD_MIN_CHARS = 24;

/**
 * The snapshot as it crosses: each long field the process already holds with the same JSON text is
 * left out and named in `names`; `parts` holds the texts of the long fields that changed (null when
 * none did), and `sent` records them as the process's from now on.
 */
function holdParts(
  snapshot: ScriptCall["snapshot"],
  knownHeld: boolean,
  sent: Map<string, string>,
): { snapshot: string; names: string[]; parts: Record<string, string> | null } {
  if (snapshot === null || typeof snapshot !== "object" || Array.isArray(snapshot)) {
    return { snapshot: JSON.stringify(snapshot) ?? "null", names: [], parts: null };
  }
  // The inline fields as JSON text, in the snapshot's key order (the known map's key kept in its place).
  let inline = "";
  const names: string[] = [];
  let parts: Record<string, string> | null = null;
  for (const key of Object.keys(snapshot)) {
    const value = (snapshot as unknown as Record<string, unknown>)[key];
    if (key === "known" && knownHeld) {
      inline += `${inline === "" ? "" : ","}"known":0`;
      continue;
    }
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) continue;
    if (key === "known" || text.length < HELD_MIN_CHARS) {
      inline += `${inline === "" ? "" : ","}${JSON.stringify(key)}:${text}`;
      continue;
    }
    names.push(key);
    if (sent.get(key) !== text) {
      parts ??= {};
      define(parts, key, text);
      sent.set(key, text);
    }
  }
  return { snapshot: `{${inline}}`, names, parts };
}

/** An own data property, also for the key `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment makes the same own property for every other key, and costs far less.
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A sandbox process the machine did not give the CPU time to start within the wall-clock ceiling. */
class StalledStart extends Error {}

/** The phase's wall-clock ceiling ran out: the machine's failure, said as such; its later calls fail the same way. */
function stalled(ceilingMs: number, elapsedMs: number): ScriptOutcome {
  return stopped(
    "stalled",
    `the machine was too busy: the phase's scripts did not finish within its ${Math.round(ceilingMs / 1000)} s wall-clock ceiling (not the script's fault; its CPU budget was not used up)`,
    elapsedMs,
  );
}

function stopped(
  failure: Extract<ScriptOutcome, { status: "error" }>["failure"],
  message: string,
  elapsedMs: number,
): ScriptOutcome {
  return { status: "error", failure, message, line: null, column: null, logs: [], elapsedMs };
}
