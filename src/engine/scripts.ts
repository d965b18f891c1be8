import type { StepContext } from "./context.ts";
import type {
  Json,
  JsonObject,
  Phase,
  ScriptCall,
  ScriptOutcome,
  ScriptPhase,
  ScriptPhaseInfo,
  ScriptRunner,
} from "./ports.ts";
import { addLog, capText } from "./record.ts";
import type { ScriptTrace } from "./trace.ts";

/** Spec 9: `info.engineVersion` and `info.semanticVersion` as scripts see them. */
export const ENGINE_VERSION = 33;
export const SEMANTIC_VERSION = "33.0.0";

export type OkOutcome = Extract<ScriptOutcome, { status: "ok" }>;

/**
 * The scripts of one phase (spec 4, 7, 8): one `beginPhase` (one isolate, one
 * budget) opened at the first script that runs, outcomes classified for the
 * trace and the log, and the phase closed at the end. After a failure that
 * ends the phase's isolate (budget or memory), later scripts are not run and
 * their triggers' typed effects apply.
 */
export class PhaseScripts {
  private handle: ScriptPhase | null = null;
  private stopped: "budget" | "memory" | "runner" | null = null;
  begun = false;

  constructor(
    private readonly runner: ScriptRunner | undefined,
    /** Built when the first script runs: measuring the trigger map costs a full serialisation. */
    private readonly describe: () => ScriptPhaseInfo,
    private readonly ctx: StepContext,
    private readonly phase: Phase,
  ) {}

  get budgetExhausted(): boolean {
    return this.stopped === "budget";
  }

  /**
   * Runs one trigger's script; `ok` is the outcome to adopt, null when nothing of the script is kept.
   * `call` is made only when the script runs (its snapshot copies the known map and storage), at
   * once, before anything is awaited.
   */
  async run(
    trigger: string,
    call: () => Omit<ScriptCall, "engineVersion" | "semanticVersion">,
    /** No other script of the phase follows this one. */
    last = false,
  ): Promise<{
    trace: ScriptTrace;
    ok: OkOutcome | null;
  }> {
    const phase = this.phase;
    if (!this.runner) {
      this.notice(
        trigger,
        "No script runner is configured: the script was skipped and the typed effects apply.",
      );
      return { trace: { status: "skipped", reason: "no script runner configured" }, ok: null };
    }
    if (this.stopped === "budget") {
      return { trace: { status: "budget", reason: "the phase's 500 ms script budget is used up" }, ok: null };
    }
    if (this.stopped !== null) {
      const reason =
        this.stopped === "memory"
          ? "the phase's isolate was terminated (memory limit)"
          : "the script runner could not start this phase";
      return { trace: { status: "skipped", reason }, ok: null };
    }
    // Made now, before anything is awaited: the script sees the state as it is at its turn in the phase.
    const made = call();
    if (!this.handle) {
      try {
        this.begun = true;
        this.handle = await this.runner.beginPhase(this.describe());
      } catch (error) {
        this.stopped = "runner";
        this.scriptError(trigger, `The script runner failed to start the ${phase} phase: ${message(error)}`);
        return {
          trace: { status: "skipped", reason: "the script runner could not start this phase" },
          ok: null,
        };
      }
    }
    let outcome: ScriptOutcome;
    try {
      outcome = await this.handle.run(
        {
          ...made,
          engineVersion: ENGINE_VERSION,
          semanticVersion: SEMANTIC_VERSION,
        },
        { last },
      );
    } catch (error) {
      outcome = {
        status: "error",
        failure: "runtime",
        message: `the runner failed: ${message(error)}`,
        line: null,
        column: null,
        logs: [],
        elapsedMs: 0,
      };
    }
    for (const entry of Array.isArray(outcome.logs) ? outcome.logs : []) {
      const level = entry.level === "log" ? "" : `[${entry.level}] `;
      addLog(this.ctx.state, this.ctx.recorder, {
        tick: this.ctx.state.tick,
        phase,
        trigger,
        type: "script-log",
        message: `${trigger}: ${level}${String(entry.message)}`,
      });
    }
    if (outcome.status === "ok") {
      const trace: ScriptTrace = { status: "ran", elapsedMs: outcome.elapsedMs };
      if (outcome.skip === true) trace.setSkip = true;
      if (outcome.storageRejected === true) trace.storageRejected = true;
      if (outcome.triggers) trace.editedTriggers = true;
      return { trace, ok: outcome };
    }
    const failure = outcome.failure;
    if (failure === "budget") this.stopped = "budget";
    if (failure === "memory") this.stopped = "memory";
    const where = outcome.line === null ? "" : ` at line ${outcome.line}, column ${outcome.column ?? "?"}`;
    this.scriptError(
      trigger,
      `${failureWord(failure)}${where}: ${outcome.message}. Its storage and trigger changes were discarded; the typed effects apply.`,
    );
    const status: ScriptTrace["status"] = failure === "syntax" || failure === "runtime" ? "error" : failure;
    return {
      trace: {
        status,
        reason: capText(String(outcome.message)),
        line: outcome.line,
        column: outcome.column,
        elapsedMs: outcome.elapsedMs,
      },
      ok: null,
    };
  }

  async end(): Promise<void> {
    if (!this.handle) return;
    const handle = this.handle;
    this.handle = null;
    try {
      await handle.end();
    } catch (error) {
      this.notice(null, `The script runner failed to end the ${this.phase} phase: ${message(error)}`);
    }
  }

  private scriptError(trigger: string, text: string) {
    addLog(this.ctx.state, this.ctx.recorder, {
      tick: this.ctx.state.tick,
      phase: this.phase,
      trigger,
      type: "trigger-script-error",
      message: text,
    });
  }

  private notice(trigger: string | null, text: string) {
    addLog(this.ctx.state, this.ctx.recorder, {
      tick: this.ctx.state.tick,
      phase: this.phase,
      trigger,
      type: "notice",
      message: text,
    });
  }
}

function failureWord(failure: string): string {
  switch (failure) {
    case "syntax":
      return "Syntax error";
    case "runtime":
      return "Runtime error";
    case "timeout":
      return "Timed out";
    case "budget":
      return "Killed: the phase's 500 ms script budget ran out";
    case "memory":
      return "Killed: the memory limit was exceeded";
    case "stalled":
      return "Stopped: the machine was too busy to run it (not the script's fault; replaying the turn on a less busy machine runs it)";
    default:
      return "Script failure";
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A deep copy of JSON data, so a runner can never alias the state. */
export function copyJson<T extends Json | JsonObject>(value: T): T {
  return structuredClone(value);
}

export type { Phase };
