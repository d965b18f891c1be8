import type { StepContext } from "./context.ts";
import { applyEffects, dropEffects, EFFECT_CAP } from "./effects/apply.ts";
import type { EffectContext } from "./effects/context.ts";
import { type EventQuestion, selectFiring } from "./evaluate.ts";
import { setOwn } from "./own.ts";
import type { AiJudge, Embedder, EventVerdict, Json, JsonObject, Phase, ScriptRunner } from "./ports.ts";
import { addLog } from "./record.ts";
import { PhaseScripts } from "./scripts.ts";
import { scriptSnapshot, takeSnapshot } from "./snapshot.ts";
import type { PhaseTrace, TriggerTrace } from "./trace.ts";
import { changedKeys, clearStaleEmbeddings, editProblems } from "./trigger-edits.ts";
import type { LiveTrigger } from "./trigger-pool.ts";

/**
 * One phase (spec 3, resolutions "Triggers"): step (1) fixes the firing set
 * from the state at the start of the phase (evaluate.ts); step (2) runs, in
 * map order, each firing trigger's script and then its effects, so later
 * scripts see earlier effects and storage writes. At the end the phase's
 * trigger-map edits are checked and kept or discarded together.
 */
export interface PhaseRun {
  ctx: StepContext;
  phase: Phase;
  /** The live trigger map at the start of the turn (edits take effect next turn). */
  pool: readonly LiveTrigger[];
  /** The map scripts see at the start of this phase: the pool plus edits kept earlier this turn. */
  scriptMap: JsonObject;
  actions: readonly { player: string; text: string }[];
  judge: AiJudge & Partial<Embedder>;
  maxJudged: number;
  scripts: ScriptRunner | undefined;
  /** AI verdicts fixed by the caller, by trigger key. */
  pins?: Record<string, boolean>;
  /** The active narrative event whose verdict this phase's judge call also asks (evaluate.ts). */
  event?: EventQuestion | null;
  signal?: AbortSignal;
}

export interface PhaseResult {
  trace: PhaseTrace;
  fired: string[];
  judgeCalls: number;
  embedCalls: number;
  /** The edited map when this phase's edits were kept; null otherwise. */
  keptMap: JsonObject | null;
  /** The judge's verdict on the event of `PhaseRun.event`, when it answered. */
  eventVerdict?: EventVerdict;
}

export async function runPhase(run: PhaseRun): Promise<PhaseResult> {
  const { ctx, phase } = run;
  const state = ctx.state;
  const actionTexts = run.actions.map((a) => a.text);
  // Every field present, absent ones undefined: one object shape for both phases (selectFiring then
  // stays optimised for it) and the same reading, since every reader treats undefined as absent.
  const selection = await selectFiring({
    ctx,
    phase,
    pool: run.pool,
    snapshot: takeSnapshot(state, ctx.index, actionTexts),
    actions: run.actions,
    judge: run.judge,
    maxJudged: run.maxJudged,
    pins: run.pins || undefined,
    event: run.event || undefined,
    signal: run.signal || undefined,
  });
  const scripts = new PhaseScripts(
    run.scripts,
    () => ({
      phase,
      tick: state.tick,
      seed: state.seed,
      sessionId: state.sessionId,
      triggerSetBytes: sizeOf(run.scriptMap),
    }),
    ctx,
    phase,
  );
  // Storage values are replaced, never changed in place (draft.ts), so a shallow copy keeps the pre-phase state.
  const preStorage = { ...state.storage };
  let storageRejected = false;
  let editedMap: JsonObject | null = null;
  const fired: string[] = [];
  // The last firing trigger with a script: its call tells the runner no other script follows.
  let lastScripted = -1;
  const firing = selection.firing;
  for (let i = 0; i < firing.length; i++) if (hasScript(firing[i]!.live.trigger.script)) lastScripted = i;
  for (let position = 0; position < firing.length; position++) {
    const { live, trace } = firing[position]!;
    const trigger = live.trigger;
    let effects: unknown[] = trigger.effects;
    let source: "typed" | "script" = "typed";
    let skip = false;
    const script = trigger.script;
    if (hasScript(script)) {
      const { trace: scriptTrace, ok } = await scripts.run(
        live.key,
        () => ({
          trigger: live.key,
          script,
          snapshot: scriptSnapshot(state, ctx.index, actionTexts),
          // A shallow copy: storage values are replaced, never changed in place (draft.ts), so a runner
          // cannot change the session through it, and a script does not pay for all of storage (the
          // sandbox sends only values that changed since its last call, by identity).
          storage: { ...state.storage },
          effects: structuredClone(trigger.effects) as Json[],
          triggers: editedMap ?? run.scriptMap,
        }),
        position === lastScripted,
      );
      trace.script = scriptTrace;
      if (ok) {
        if (ok.storageRejected) {
          if (!storageRejected) rejectStorage(ctx, phase, live.key, ok.storageProblem);
          storageRejected = true;
        }
        if (!storageRejected) state.storage = isObject(ok.storage) ? ok.storage : {};
        if (ok.triggers) editedMap = ok.triggers;
        skip = ok.skip === true;
        effects = Array.isArray(ok.effects) ? ok.effects : [];
        source = "script";
      }
    }
    if (skip) {
      // Not counted as fired, not consumed; the script's storage and trigger edits stay.
      trace.fired = false;
      trace.effects = dropEffects(effects, source, "skip");
      continue;
    }
    trace.effects = applyEffects(effects, source, effectContext(ctx, live, trace), EFFECT_CAP);
    fired.push(live.key);
    if (trigger.recurring !== true) {
      setOwn(state.consumed, live.key, state.tick);
      trace.consumed = true;
    } else {
      state.recurringFired ??= {};
      setOwn(state.recurringFired, live.key, state.tick);
    }
  }
  for (const trace of selection.traces) {
    if (trace.suppressed)
      trace.effects = dropEffects(triggerOf(run.pool, trace).effects, "typed", "suppressed");
  }
  await scripts.end();
  if (storageRejected) state.storage = preStorage;
  const edits = settleEdits(ctx, phase, run.scriptMap, editedMap);
  return {
    trace: {
      phase,
      triggers: selection.traces,
      excluded: selection.excluded,
      judge: selection.judge,
      scripts: { begun: scripts.begun, budgetExhausted: scripts.budgetExhausted },
      edits: edits.trace,
      storageRejected,
    },
    fired,
    judgeCalls: selection.judgeCalls,
    embedCalls: selection.embedCalls,
    keptMap: edits.kept,
    ...(selection.eventVerdict !== undefined ? { eventVerdict: selection.eventVerdict } : {}),
  };
}

function effectContext(ctx: StepContext, live: LiveTrigger, trace: TriggerTrace): EffectContext {
  // Spelled out rather than spread: one object shape, made without copying ctx's keys one by one.
  return {
    state: ctx.state,
    index: ctx.index,
    recorder: ctx.recorder,
    owner: live.key,
    recurring: live.trigger.recurring === true,
    scope: live.trigger.scope === "player" ? "player" : "party",
    targets: trace.targets,
  };
}

/**
 * Spec 4: a BigInt or circular value rejects the phase's storage writes; storage returns to its
 * state before the phase. So does a value nested too deep or storage grown past its size limit.
 */
function rejectStorage(ctx: StepContext, phase: Phase, trigger: string, problem: string | undefined) {
  addLog(ctx.state, ctx.recorder, {
    tick: ctx.state.tick,
    phase,
    trigger,
    type: "trigger-script-error",
    message: `${trigger}: ${problem || "storage held a BigInt or a circular value"}, so every storage write of the ${phase} phase was rejected and storage reverts to its state before the phase.`,
  });
}

function settleEdits(
  ctx: StepContext,
  phase: Phase,
  before: JsonObject,
  edited: JsonObject | null,
): { trace: PhaseTrace["edits"]; kept: JsonObject | null } {
  if (edited === null) return { trace: { status: "none", changed: [], problems: [] }, kept: null };
  const changed = changedKeys(before, edited);
  if (changed.length === 0) return { trace: { status: "none", changed: [], problems: [] }, kept: null };
  const problems = editProblems(ctx.index, edited);
  if (problems.length > 0) {
    addLog(ctx.state, ctx.recorder, {
      tick: ctx.state.tick,
      phase,
      trigger: null,
      type: "trigger-script-error",
      message: `The trigger-map edits of the ${phase} phase break the publish rules and were all discarded: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""}`,
    });
    return { trace: { status: "discarded", changed, problems }, kept: null };
  }
  const kept = clearStaleEmbeddings(edited, before as never);
  return { trace: { status: "kept", changed, problems: [] }, kept };
}

function triggerOf(pool: readonly LiveTrigger[], trace: TriggerTrace) {
  return pool.find((l) => l.key === trace.trigger)!.trigger;
}

const sizes = new WeakMap<JsonObject, number>();

/** Compact JSON size of the trigger map (memory headroom of the isolate), computed once per map and only when scripts run. */
function sizeOf(map: JsonObject): number {
  let size = sizes.get(map);
  if (size === undefined) {
    size = JSON.stringify(map).length;
    sizes.set(map, size);
  }
  return size;
}

function hasScript(script: unknown): script is string {
  return typeof script === "string" && script.trim() !== "";
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
