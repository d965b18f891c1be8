import { buildPartyNpc, buildPlayer, grantStartingItems, type PlayerSpec } from "./characters.ts";
import type { StepContext } from "./context.ts";
import { diffStates } from "./diff.ts";
import type { Env } from "./env.ts";
import { arriveAt } from "./geography.ts";
import { markArrival, setKnown } from "./known.ts";
import { narrate } from "./narration.ts";
import { nextStepOf } from "./next-step.ts";
import { runPhase } from "./phase.ts";
import type { JsonObject } from "./ports.ts";
import { moveQuest, questPrompts } from "./quests.ts";
import { newRecorder } from "./record.ts";
import type { TurnResult } from "./result.ts";
import { nextUint32, pick, seedRng } from "./rng.ts";
import type { Position, SessionState } from "./state.ts";
import { editsFrom, noEdits } from "./trigger-edits.ts";
import { liveTriggers, triggerMapOf } from "./trigger-pool.ts";
import type { TurnHooks } from "./turn.ts";

export interface OpeningSetup {
  storyStart: string;
  players: PlayerSpec[];
  seed: number;
  sessionId?: string;
}

/**
 * Creating a game is tick 0 (resolutions "Ticks", "Story starts"): the party
 * is made and placed, starting quests become available, the opening is
 * narrated from the story start's `storyStart` (narrator called with
 * `opening: true`), and only then do the tick-0 triggers run (state phase),
 * so a `story` effect at tick 0 cannot reach the opening (spec 3).
 */
export async function openSession(
  env: Env,
  setup: OpeningSetup,
  hooks: TurnHooks = {},
): Promise<{ state: SessionState; result: TurnResult }> {
  const state = initialState(env, setup);
  const ctx: StepContext = { state, index: env.index, recorder: newRecorder() };
  const start = env.index.world.storyStarts[setup.storyStart]!;
  const before = structuredClone(state);
  for (const quest of start.startingQuests ?? []) {
    if (Object.hasOwn(env.index.world.quests, quest))
      moveQuest(ctx, quest, "available", "a starting quest of the story start");
  }
  const narration = await narrate(
    ctx,
    env.ai,
    {
      opening: true,
      actions: [],
      intent: null,
      instructions: [],
      event: null,
      openingText: start.storyStart,
    },
    hooks.onChunk,
    hooks.signal,
  );
  const pool = liveTriggers(env.index, state.triggerEdits);
  const phase = await runPhase({
    ctx,
    phase: "state",
    pool,
    scriptMap: triggerMapOf(pool) as unknown as JsonObject,
    actions: [],
    judge: env.ai,
    maxJudged: env.maxJudged,
    scripts: env.scripts,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  });
  if (phase.keptMap) state.triggerEdits = editsFrom(env.index, phase.keptMap);
  const result: TurnResult = {
    tick: 0,
    intent: null,
    story: narration.text,
    fired: phase.fired,
    trace: {
      tick: 0,
      aiCalls: {
        classify: 0,
        narrate: narration.calls,
        judge: phase.judgeCalls,
        embed: phase.embedCalls,
        total: narration.calls + phase.judgeCalls,
      },
      intent: { source: "none", answer: null },
      movement: null,
      phases: [phase.trace],
      spent: {},
      event: null,
      quests: ctx.recorder.quests,
      recharge: [],
      tip: null,
    },
    diff: diffStates(before, state),
    prompts: questPrompts(ctx, false),
    logs: ctx.recorder.logs,
    tip: null,
    next: nextStepOf(state, env.index.world),
  };
  return { state, result };
}

/** The state before the opening: party, place and seed. */
function initialState(env: Env, setup: OpeningSetup): SessionState {
  const index = env.index;
  const world = index.world;
  const rng = seedRng(setup.seed);
  const sessionId = setup.sessionId ?? `s-${hex(nextUint32(rng))}${hex(nextUint32(rng))}`;
  const start = world.storyStarts[setup.storyStart]!;
  const position = startingPosition(env, start.locations, start.locationAreas, rng);
  const party = setup.players.map((spec) => buildPlayer(spec, index));
  for (const character of party) grantStartingItems(character, index, start);
  const npcs = (start.startingPartyNPCs ?? []).filter((key) => Object.hasOwn(world.npcs, key));
  party.push(...npcs.map((key) => buildPartyNpc(key, index)));
  const state: SessionState = {
    tick: 0,
    seed: setup.seed,
    rng,
    sessionId,
    storyStart: setup.storyStart,
    party,
    position,
    known: {},
    quests: {},
    events: {},
    partyNextStep: null,
    storage: {},
    consumed: {},
    triggerEdits: noEdits(),
    history: { story: [], actions: [] },
    summary: { text: "", upTo: -1 },
    pendingInstructions: [],
    log: [],
    badPatterns: [],
    lastTip: -1,
  };
  markArrival(state, index, position);
  for (const key of npcs) setKnown(state, index, key, true);
  return state;
}

/**
 * A seeded pick among the story start's `locations` (all locations when the
 * list is empty or names none that exist), then among its `locationAreas`
 * that belong to that location (all its areas when none do).
 */
export function startingPosition(
  env: Env,
  locations: readonly string[],
  areas: readonly string[],
  rng: number[],
): Position {
  const world = env.index.world;
  const listed = locations.filter((key) => Object.hasOwn(world.locations, key));
  const location = pick(rng, listed.length > 0 ? listed : Object.keys(world.locations));
  if (location === undefined) return { realm: "", region: "", location: "", area: "", x: 0, y: 0 };
  const position = arriveAt(env.index, location)!;
  const own = Object.keys(world.locations[location]!.areas ?? {});
  const matching = areas.filter((a) => own.includes(a));
  position.area = pick(rng, matching.length > 0 ? matching : own) ?? "";
  return position;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}
