import ivm from "isolated-vm";
import type { JsonObject, ScriptLog, ScriptOutcome, ScriptPhaseInfo } from "../engine/ports.ts";
import { parseScript } from "../world/script.ts";
import { PRELUDE } from "./prelude.ts";
import { LOG_CAP_BYTES, memoryLimitMb, type Reply, type Request, type WireCall } from "./protocol.ts";

/**
 * The sandbox child process: owns the isolates, so that a V8 abort on a huge
 * allocation kills this process and not the engine. One isolate per phase,
 * one fresh context per script (a script's pollution of its intrinsics never
 * reaches the next script). Requests are handled one at a time, in order.
 */

/** The file name scripts are compiled under; runtime error positions are read from stack frames naming it. */
const SCRIPT_FILE = "trigger-script.js";
const FRAME = new RegExp(`^\\s*at .*${SCRIPT_FILE.replace(".", "\\.")}:(\\d+):(\\d+)\\)?$`);

/** The instant `Date` shows at tick 0; each tick adds one minute, so time stays a pure function of the tick. */
const EPOCH_MS = Date.UTC(2000, 0, 1);

/** Inlined by bundleChild; when the child runs through tsx instead, built here. */
declare const __TF_CHECK_BUNDLE__: string | undefined;
const CHECK_BUNDLE =
  typeof __TF_CHECK_BUNDLE__ === "string" ? __TF_CHECK_BUNDLE__ : (await import("./bundle.ts")).bundleCheck();

interface PhaseState {
  info: ScriptPhaseInfo;
  isolate: ivm.Isolate;
  prelude: ivm.Script;
  check: ivm.Script;
  logBytes: number;
  logClosed: boolean;
}

/** The last trigger map received, as JSON: made once, and again only when a call brings a new map. */
let triggersJson: string | null = null;

const phases = new Map<number, PhaseState>();

function begin(phaseId: number, info: ScriptPhaseInfo): void {
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb(info.triggerSetBytes) });
  phases.set(phaseId, {
    info,
    isolate,
    prelude: isolate.compileScriptSync(PRELUDE, { filename: "taleforge-prelude.js" }),
    check: isolate.compileScriptSync(CHECK_BUNDLE, { filename: "taleforge-check.js" }),
    logBytes: 0,
    logClosed: false,
  });
}

function end(phaseId: number): void {
  const state = phases.get(phaseId);
  phases.delete(phaseId);
  if (state && !state.isolate.isDisposed) state.isolate.dispose();
}

type Failure = Extract<ScriptOutcome, { status: "error" }>["failure"];

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

function run(phaseId: number, call: WireCall, budgetMs: number): { outcome: ScriptOutcome; usedMs: number } {
  const logs: ScriptLog[] = [];
  // Kept before anything can fail: the host sends a map once and counts on the child holding it.
  if (call.triggers !== undefined) triggersJson = JSON.stringify(call.triggers);
  const state = phases.get(phaseId);
  if (!state || state.isolate.isDisposed) {
    return { outcome: failed("memory", "the phase's isolate was terminated", logs, 0), usedMs: 0 };
  }
  const parsed = parseScript(call.script);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return { outcome: failed("syntax", message, logs, 0, line, column), usedMs: 0 };
  }
  if (budgetMs <= 0) {
    return { outcome: failed("budget", "the phase's 500 ms script budget is used up", logs, 0), usedMs: 0 };
  }
  const { isolate } = state;
  let context: ivm.Context | null = null;
  let readBack: ivm.Reference | null = null;
  let used = 0;
  try {
    context = isolate.createContextSync();
    readBack = prepare(state, context, call, logs);
    let script: ivm.Script;
    try {
      script = isolate.compileScriptSync(call.script, { filename: SCRIPT_FILE });
    } catch (error) {
      const where = position(error);
      return { outcome: failed("syntax", messageOf(error), logs, 0, where.line, where.column), usedMs: 0 };
    }
    const started = performance.now();
    try {
      script.runSync(context, { timeout: Math.max(1, Math.ceil(budgetMs)) });
      const left = budgetMs - (performance.now() - started);
      if (left <= 0) throw new Error("Script execution timed out.");
      const text = readBack.applySync(undefined, [], { timeout: Math.max(1, Math.ceil(left)) }) as string;
      used = performance.now() - started;
      return { outcome: decode(text, call.storage, logs, used), usedMs: used };
    } catch (error) {
      used = performance.now() - started;
      return { outcome: classify(error, isolate, logs, used, budgetMs), usedMs: used };
    }
  } catch (error) {
    return { outcome: classify(error, isolate, logs, used, Number.POSITIVE_INFINITY), usedMs: used };
  } finally {
    // Both handles keep the context alive: released at once, or a long phase fills the isolate's heap.
    if (!isolate.isDisposed) {
      readBack?.release();
      context?.release();
    }
  }
}

/** Installs the inputs, the bundled check() and the prelude in a fresh context; answers the read-back function. */
function prepare(state: PhaseState, context: ivm.Context, call: WireCall, logs: ScriptLog[]): ivm.Reference {
  const { info } = state;
  const global = context.global;
  const input = JSON.stringify({
    snapshot: call.snapshot,
    storage: call.storage,
    effects: call.effects,
    info: { engineVersion: call.engineVersion, semanticVersion: call.semanticVersion },
    seed: seedWords(`${info.seed}:${info.tick}:${call.trigger}`),
    now: EPOCH_MS + info.tick * 60_000,
  });
  global.setSync("__tfIn", input);
  global.setSync("__tfTriggers", triggersJson ?? "{}");
  global.setSync(
    "__tfLog",
    new ivm.Callback((level: unknown, text: unknown) => capture(state, logs, level, text)),
  );
  state.check.runSync(context, { timeout: 2000 });
  return state.prelude.runSync(context, { timeout: 2000, reference: true }) as ivm.Reference;
}

const LEVELS = new Set(["log", "info", "warn", "error"]);

/** Keeps a log line while the phase is under its cap; answers whether more lines are welcome. */
function capture(state: PhaseState, logs: ScriptLog[], level: unknown, text: unknown): boolean {
  if (state.logClosed) return false;
  const message = String(text);
  const bytes = Buffer.byteLength(message);
  const kind = (typeof level === "string" && LEVELS.has(level) ? level : "log") as ScriptLog["level"];
  if (state.logBytes + bytes > LOG_CAP_BYTES) {
    state.logClosed = true;
    logs.push({
      level: "warn",
      message: `log output truncated: scripts of this phase may log ${LOG_CAP_BYTES} bytes in all`,
    });
    return false;
  }
  state.logBytes += bytes;
  logs.push({ level: kind, message });
  return true;
}

/** Rejected storage answers the storage the script was given: the phase's writes revert (spec 4). */
function decode(text: string, given: JsonObject, logs: ScriptLog[], elapsedMs: number): ScriptOutcome {
  const [flags = "--", storage = "{}", effects = "[]", triggers = ""] = text.split("\u0000");
  const rejected = flags[0] === "r";
  return {
    status: "ok",
    storage: rejected ? given : JSON.parse(storage),
    storageRejected: rejected,
    effects: JSON.parse(effects),
    skip: flags[1] === "s",
    triggers: triggers === "" ? null : JSON.parse(triggers),
    logs,
    elapsedMs,
  };
}

/** A thrown "timed out" counts as the timeout only when the time was really used (a script can throw that text). */
function classify(
  error: unknown,
  isolate: ivm.Isolate,
  logs: ScriptLog[],
  used: number,
  budgetMs: number,
): ScriptOutcome {
  const message = messageOf(error);
  if (isolate.isDisposed) {
    return failed("memory", "the script exceeded the phase's memory limit", logs, used);
  }
  if (message === "Error: Script execution timed out." && used >= budgetMs - 2) {
    return failed("timeout", "the phase's 500 ms script budget ran out while the script ran", logs, used);
  }
  const where = position(error);
  return failed("runtime", message, logs, used, where.line, where.column);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `uncaught ${typeof error === "string" ? error : JSON.stringify(error)}`;
  } catch {
    return "uncaught value";
  }
}

function position(error: unknown): { line: number | null; column: number | null } {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  for (const line of stack.split("\n")) {
    const match = FRAME.exec(line);
    if (match) return { line: Number(match[1]), column: Number(match[2]) };
  }
  return { line: null, column: null };
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
      case "begin":
        begin(request.phaseId, request.info);
        return { id: request.id, type: "begun" };
      case "run": {
        const { outcome, usedMs } = run(request.phaseId, request.call, request.budgetMs);
        return { id: request.id, type: "ran", outcome, usedMs };
      }
      case "end":
        end(request.phaseId);
        return { id: request.id, type: "ended" };
    }
  } catch (error) {
    return { id: request.id, type: "failed", message: messageOf(error) };
  }
}

process.on("message", (request: Request) => {
  process.send?.(handle(request));
});
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0, type: "ready" } satisfies Reply);
