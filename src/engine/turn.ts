import { didYouMean } from "../world/suggest.ts";
import type { StepContext } from "./context.ts";
import { diffStates } from "./diff.ts";
import { draftOf } from "./draft.ts";
import type { Env } from "./env.ts";
import { EngineError } from "./errors.ts";
import type { EventQuestion } from "./evaluate.ts";
import { concludeEvent } from "./event-verdict.ts";
import { activeEvent } from "./events.ts";
import { classifyIntent } from "./intent.ts";
import { moveByIntent } from "./movement.ts";
import { applySummary, narrate, summariseAfterStory } from "./narration.ts";
import { nextStepOf } from "./next-step.ts";
import { own } from "./own.ts";
import { runPhase } from "./phase.ts";
import type { EventVerdict, IntentAnswer, JsonObject } from "./ports.ts";
import { expireQuests, questPrompts } from "./quests.ts";
import { recharge } from "./recharge.ts";
import { addLog, newRecorder } from "./record.ts";
import type { TurnResult } from "./result.ts";
import type { SessionState } from "./state.ts";
import { nextTip } from "./tips.ts";
import { editsFrom } from "./trigger-edits.ts";
import { type LiveTrigger, liveTriggers, triggerMapOf } from "./trigger-pool.ts";

export interface TurnInput {
  /** The player actions of this turn, one per acting player. */
  actions: { player: string; text: string }[];
  /** Answers fixed by the caller instead of asking the AI (play-tests, dry runs). */
  pins?: TurnPins;
  /** Another draw of the narration (a retried turn, issue 33): 1, 2, ...; 0 or absent for the first. */
  draw?: number;
}

export interface TurnPins {
  /** The intent (and target) of the turn: no classifier call. */
  intent?: IntentAnswer;
  /** The narration text: no narrator call (so no event verdict and no summary this turn). */
  story?: string;
  /** AI verdicts by trigger key: every AI-judged condition of that trigger passes or fails without asking. */
  judge?: Record<string, boolean>;
  /** The verdict on the active narrative event: no AI is asked about it (a game replayed from its record). */
  event?: EventVerdict;
}

export interface TurnHooks {
  onChunk?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * One player turn, as a step from a state to the next (the input was checked
 * by input.ts). Works on a private copy: the given state is never changed, so
 * a turn that fails (an AI port error) leaves the session as it was.
 *
 * Order: tick += 1; planning (intent, planning-phase triggers); movement;
 * narration; state-phase triggers; after the turn: event verdict, quest
 * expiry, acceptance prompts, resource recharge, tip; script edits of the
 * trigger map take effect from the next turn.
 */
export async function playTurn(
  env: Env,
  before: SessionState,
  input: TurnInput,
  hooks: TurnHooks = {},
): Promise<{ state: SessionState; result: TurnResult }> {
  const state = draftOf(before);
  const ctx: StepContext = { state, index: env.index, recorder: newRecorder() };
  state.tick += 1;
  const actions = input.actions.map((a) => ({ player: a.player, text: a.text }));
  for (const a of actions) state.history.actions.push({ tick: state.tick, ...a });
  // Instructions pending now shape this narration; those added during the turn wait for the next one.
  const instructions = state.pendingInstructions;
  const standing = state.pendingStanding ?? [];
  state.pendingInstructions = [];
  delete state.pendingStanding;

  // The pool does not depend on the intent: a bad judge pin is refused before any AI call.
  const pool = liveTriggers(env.index, state.triggerEdits);
  checkJudgePins(pool, input.pins?.judge);
  // The classifier's request is built now, before the planning phase changes anything.
  const intentCall = classifyIntent(ctx, env.ai, actions[0]!, input.pins?.intent, hooks.signal, actions);
  const phaseBase = {
    ctx,
    pool,
    actions,
    judge: env.ai,
    maxJudged: env.maxJudged,
    scripts: env.scripts,
    ...(input.pins?.judge ? { pins: input.pins.judge } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  };
  // Issue 19 item 8: the planning phase (its judge call) does not depend on the intent, so both
  // run at once: two sequential round trips before the first narrated word, not three. The
  // intent changes nothing before movement, which waits for both.
  const planningCall = runPhase({
    ...phaseBase,
    phase: "planning",
    scriptMap: triggerMapOf(pool) as unknown as JsonObject,
  });
  const [intentDone, planningDone] = await Promise.allSettled([intentCall, planningCall]);
  if (intentDone.status === "rejected") throw intentDone.reason;
  if (planningDone.status === "rejected") throw planningDone.reason;
  const intent = intentDone.value;
  const planning = planningDone.value;
  const mover = moverOf(intent.answer, actions);
  const movement = moveByIntent(ctx, intent.answer, mover);
  // A move asked for that did not happen is a "refused" outcome (movement.ts): no arrival is described.
  if (movement?.moved && mover !== null) recordFollowers(ctx, mover);

  const event = activeEvent(ctx);
  const narration = await narrate(
    ctx,
    env.ai,
    {
      opening: false,
      actions,
      intent: intent.answer,
      instructions,
      standing,
      event,
      // The world answered the actions before the story is written: it must not tell them as coming to nothing.
      answered: planning.fired.length > 0,
      ...(input.pins?.story !== undefined ? { pinned: input.pins.story } : {}),
      ...(input.draw !== undefined && input.draw > 0 ? { draw: input.draw } : {}),
    },
    hooks.onChunk,
    hooks.signal,
  );
  // After the story was shown nothing may void the turn (issue 19 item 5). The event verdict, when
  // the narrator gave none, is asked in the state phase's judge call; the running summary is its own
  // call beside it (its request is built before the phase changes anything, and applied after).
  // A pinned story asks no AI about the event either (pins: no narrator call, no verdict that turn).
  const eventPin = input.pins?.event;
  const eventQuestion =
    eventPin === undefined && narration.calls > 0 && narration.eventVerdict === undefined
      ? eventQuestionOf(ctx, event)
      : null;
  const summaryCall = summariseAfterStory(ctx, env.ai, narration.summarise, hooks.signal);
  const stateCall = runPhase({
    ...phaseBase,
    phase: "state",
    scriptMap: planning.keptMap ?? (triggerMapOf(pool) as unknown as JsonObject),
    event: eventQuestion,
  });
  const [summaryDone, stateDone] = await Promise.allSettled([summaryCall, stateCall]);
  if (stateDone.status === "rejected") throw stateDone.reason;
  if (summaryDone.status === "rejected") throw summaryDone.reason;
  const statePhase = stateDone.value;
  if (summaryDone.value.text !== null && narration.summarise)
    applySummary(ctx, narration.summarise, summaryDone.value.text);

  const verdict = eventPin ?? narration.eventVerdict ?? statePhase.eventVerdict;
  if (event !== null && verdict === undefined && narration.calls > 0)
    addLog(state, ctx.recorder, {
      tick: state.tick,
      phase: "state",
      trigger: `narrativeEvents/${event}`,
      type: "notice",
      message: `No verdict came for the narrative event "${event}" this turn (the narrator gave none and the judge did not answer); it stays active.`,
    });
  const eventTrace = concludeEvent(ctx, event, verdict);
  expireQuests(ctx);
  const prompts = questPrompts(ctx, intent.answer.intent === "acceptQuest");
  const recharged = recharge(ctx, intent.answer.intent === "sleep");
  const tip = nextTip(ctx);
  const kept = statePhase.keptMap ?? planning.keptMap;
  if (kept) state.triggerEdits = editsFrom(env.index, kept);

  const judge = planning.judgeCalls + statePhase.judgeCalls;
  const embed = planning.embedCalls + statePhase.embedCalls;
  const summaries = summaryDone.value.calls;
  const result: TurnResult = {
    tick: state.tick,
    intent: intent.answer,
    story: narration.text,
    fired: [...planning.fired, ...statePhase.fired],
    trace: {
      tick: state.tick,
      aiCalls: {
        classify: intent.calls,
        narrate: narration.calls,
        judge,
        embed,
        ...(summaries > 0 ? { summary: summaries } : {}),
        total: intent.calls + narration.calls + judge + summaries,
      },
      intent: intent.trace,
      movement,
      phases: [planning.trace, statePhase.trace],
      spent: before.consumed,
      event: eventTrace,
      quests: ctx.recorder.quests,
      recharge: recharged,
      tip,
    },
    diff: diffStates(before, state),
    prompts,
    logs: ctx.recorder.logs,
    tip,
    next: nextStepOf(state, env.index.world),
  };
  if (narration.segments) result.segments = narration.segments;
  return { state, result };
}

/** The active event as the judge is asked about it, or null. */
function eventQuestionOf(ctx: StepContext, event: string | null): EventQuestion | null {
  if (event === null) return null;
  const definition = own(ctx.index.world.narrativeEvents, event);
  if (!definition) return null;
  return { key: event, title: definition.title, beats: definition.beats };
}

/** A judge pin must name a trigger of the live map: a typo would otherwise pin nothing, silently. */
function checkJudgePins(pool: readonly LiveTrigger[], pins: Record<string, boolean> | undefined): void {
  if (!pins) return;
  const keys = new Set(pool.map((l) => l.key));
  for (const key of Object.keys(pins)) {
    if (!keys.has(key)) {
      throw new EngineError(
        "turn/invalid",
        "pin-trigger",
        { trigger: key, suggestion: didYouMean(key, [...keys]) },
        { trigger: key },
      );
    }
  }
}

/** Whose word moved the party: the intent's leader, else the only player who acted; null when unknown. */
function moverOf(intent: IntentAnswer | null, actions: readonly { player: string }[]): string | null {
  if (intent?.leader) return intent.leader;
  const players = [...new Set(actions.map((a) => a.player).filter((p) => p !== ""))];
  return players.length === 1 ? players[0]! : null;
}

/** The whole party moves together: in a party, every other player character goes along ("followed"). */
function recordFollowers(ctx: StepContext, leader: string): void {
  for (const c of ctx.state.party)
    if (c.kind === "player" && c.name !== leader)
      ctx.recorder.outcomes.push({ type: "followed", actor: c.name, leader });
}
