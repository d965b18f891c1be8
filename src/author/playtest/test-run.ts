import type { PlayerSpec, SaveFile, SessionState, TurnInput, WorldIndex } from "../../engine/index.ts";
import {
  createSession,
  type EngineError,
  isEngineError,
  liveTriggers,
  restoreSession,
  type Session,
  setOwn,
} from "../../engine/index.ts";
import type { AiPorts, ScriptRunner } from "../../engine/ports.ts";
import type { JsonPath } from "../../world/diagnostic.ts";
import type { World } from "../../world/schema/index.ts";
import type { CoverageCollector } from "./coverage.ts";
import { checkExpect, type Observed } from "./expect.ts";
import { type PlannedTest, playerNames } from "./plan.ts";
import { byPosition, failureAt, type Locate, type TestFailure } from "./problem.ts";
import type { Given, PlayerSetup, Step } from "./schema.ts";
import { scriptTriggerNames } from "./script-triggers.ts";

export interface TestRun {
  test: PlannedTest;
  world: World;
  index: WorldIndex;
  ai: () => (AiPorts & { close?(): Promise<void> }) | Promise<AiPorts & { close?(): Promise<void> }>;
  scripts: ScriptRunner;
  coverage: { id: string; collector: CoverageCollector };
  locate: Locate;
}

/**
 * Plays one play-test: a new session (the opening), the `given` state, then
 * each step with its expectations checked after it. A failed expectation is
 * recorded and the test goes on; a step the engine refuses (or that fails)
 * ends the test there, since every later step would play from the wrong state.
 */
export async function runTest(run: TestRun): Promise<{ failures: TestFailure[]; ran: number }> {
  const { test, locate } = run;
  const failures: TestFailure[] = [];
  const fail = (path: JsonPath, message: string, step: number | null, atKey = false) => {
    failures.push(failureAt(locate, path, message, step, atKey));
  };
  const ai = await run.ai();
  try {
    let session: Session;
    try {
      session = await createSession(run.world, {
        ...(test.storyStart !== undefined ? { storyStart: test.storyStart } : {}),
        ...(test.players !== undefined ? { players: test.players.map(playerSpec) } : {}),
        seed: test.seed,
        ai,
        scripts: run.scripts,
        validate: false,
      });
    } catch (error) {
      const [path, atKey] = setupPath(test, error);
      fail(path, `The session could not start: ${describe(error)}`, null, atKey);
      return { failures, ran: 0 };
    }
    const opening = session.opening!;
    let state = session.state;
    run.coverage.collector.turn(run.coverage.id, opening, state);
    if (test.given) {
      try {
        session = await applyGiven(session, test.given, run, ai);
        state = session.state;
      } catch (error) {
        fail(test.origin.given, `\`given\` could not be applied: ${describe(error)}`, null, true);
        return { failures, ran: 0 };
      }
    }
    const triggers = new Set(liveTriggers(run.index, state.triggerEdits).map((l) => l.key));
    const scriptNames = scriptTriggerNames(
      Object.values(run.index.baseTriggers).flatMap((t) => (typeof t.script === "string" ? [t.script] : [])),
    );
    let last: Pick<Observed, "turn" | "fired" | "logs" | "prompts" | "consumedBefore"> = {
      turn: opening,
      fired: opening.fired,
      logs: opening.logs,
      prompts: opening.prompts,
      consumedBefore: {},
    };
    let ran = 0;
    for (const [i, step] of test.steps.entries()) {
      const at = [...test.path, "turns", i];
      const consumedBefore = state.consumed;
      try {
        const played = await playStep(session, step, playerNames(test.players));
        if (played) last = { ...played, consumedBefore };
      } catch (error) {
        const [path, atKey] = stepPath(at, step, error);
        fail(path, `step ${i + 1}: ${describe(error)}${stopped(test.steps.length - i - 1)}`, i + 1, atKey);
        return { failures, ran };
      }
      ran++;
      state = session.read(current);
      for (const live of liveTriggers(run.index, state.triggerEdits)) triggers.add(live.key);
      if (last.turn && (step.act !== undefined || step.acts !== undefined))
        run.coverage.collector.turn(run.coverage.id, last.turn, state);
      else run.coverage.collector.quests(run.coverage.id, state);
      if (!step.expect) continue;
      const seen: Observed = { ...last, state, index: run.index, triggers, scriptNames };
      const before = failures.length;
      for (const m of checkExpect(step.expect, seen, [...at, "expect"]))
        fail(m.path, `step ${i + 1}: ${m.message}`, i + 1, m.atKey === true);
      // In file order, as a reader goes down the step.
      failures.push(...failures.splice(before).sort(byPosition));
    }
    return { failures, ran };
  } finally {
    await ai.close?.();
  }
}

function playerSpec(p: PlayerSetup): PlayerSpec {
  if (p.premade !== undefined) return { premade: p.premade };
  return {
    name: p.name ?? "",
    ...(p.traits !== undefined ? { traits: p.traits } : {}),
    ...(p.attributes !== undefined ? { attributes: p.attributes } : {}),
  };
}

type Played = Pick<Observed, "turn" | "fired" | "logs" | "prompts">;

/** Plays a step; null for a step that only checks. */
async function playStep(session: Session, step: Step, players: string[]): Promise<Played | null> {
  if (step.act !== undefined || step.acts !== undefined) {
    const result = await session.turn(turnInput(step, players));
    return { turn: result, fired: result.fired, logs: result.logs, prompts: result.prompts };
  }
  const answer =
    step.accept !== undefined
      ? session.acceptQuest(step.accept)
      : step.reject !== undefined
        ? session.rejectQuest(step.reject)
        : step.abandon !== undefined
          ? session.abandonQuest(step.abandon)
          : null;
  if (!answer) return null;
  return { turn: null, fired: [], logs: answer.logs, prompts: [] };
}

export function turnInput(step: Step, players: string[]): TurnInput {
  const actions =
    step.acts !== undefined
      ? step.acts.map((a) => ({ player: a.player, text: a.act }))
      : [{ player: step.player ?? players[0]!, text: step.act ?? "" }];
  const pins: NonNullable<TurnInput["pins"]> = {};
  if (step.intent !== undefined)
    pins.intent =
      step.target !== undefined ? { intent: step.intent, target: step.target } : { intent: step.intent };
  if (step.story !== undefined) pins.story = step.story;
  if (step.judge !== undefined) pins.judge = step.judge;
  if (step.event !== undefined) pins.event = step.event;
  return Object.keys(pins).length > 0 ? { actions, pins } : { actions };
}

/**
 * `given`: state set after the opening and before the first step. It goes
 * through a save, so the session resumes exactly as the engine would resume
 * any saved game: storage keys are set, resources set to the value (kept
 * within 0 and the maximum).
 */
async function applyGiven(session: Session, given: Given, run: TestRun, ai: AiPorts): Promise<Session> {
  const save = JSON.parse(session.save()) as SaveFile;
  const state = save.state;
  for (const [key, value] of Object.entries(given.storage ?? {})) setOwn(state.storage, key, value);
  for (const [name, player] of Object.entries(given.players ?? {})) {
    const character = state.party.find((c) => c.name === name)!;
    for (const [resource, value] of Object.entries(player.resources ?? {})) {
      const key = Object.keys(character.resources).find(
        (k) => k.toLowerCase() === resource.trim().toLowerCase(),
      );
      const entry = key !== undefined ? character.resources[key] : undefined;
      if (entry) entry.current = Math.max(0, Math.min(entry.max, value));
    }
  }
  return restoreSession(run.world, save, { ai, scripts: run.scripts, validate: false });
}

/** Where a session that would not start went wrong: the players, the story start, or the test. */
function setupPath(test: PlannedTest, error: unknown): [JsonPath, boolean] {
  if (isEngineError(error)) {
    if (error.code.startsWith("player/")) {
      const index = /players\[(\d+)\]/.exec(error.message)?.[1];
      return [index !== undefined ? [...test.origin.players, Number(index)] : test.origin.players, false];
    }
    if (error.code === "options/unknown-story-start") return [test.origin.storyStart, false];
  }
  return [test.path, false];
}

/** Where a refused step went wrong: a judge pin, the acting player, or the step's action. */
function stepPath(at: JsonPath, step: Step, error: unknown): [JsonPath, boolean] {
  if (isEngineError(error)) {
    const e = error as EngineError;
    const trigger = e.details.trigger;
    if (typeof trigger === "string" && step.judge && Object.hasOwn(step.judge, trigger))
      return [[...at, "judge", trigger], true];
    if (e.code === "turn/unknown-player" || e.code === "turn/duplicate-player") {
      const i = step.acts?.findIndex((a) => a.player === e.details.player) ?? -1;
      if (i >= 0) return [[...at, "acts", i, "player"], false];
      if (step.player !== undefined) return [[...at, "player"], false];
    }
  }
  for (const key of ["act", "acts", "accept", "reject", "abandon"] as const)
    if (step[key] !== undefined) return [[...at, key], true];
  return [at, false];
}

function describe(error: unknown): string {
  if (isEngineError(error)) return `${error.message} (${error.code})`;
  return `${error instanceof Error ? error.message : String(error)} (an unexpected error: please report it with the play-test)`;
}

function stopped(rest: number): string {
  return rest > 0 ? ` The test stops here; ${rest} later step${rest === 1 ? "" : "s"} did not run.` : "";
}

/** The session's state itself, not a copy (Session.read): the checks only read it, and a step never changes it. */
function current(state: Readonly<SessionState>): SessionState {
  return state as SessionState;
}
