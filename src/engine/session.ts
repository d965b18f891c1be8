import type { World } from "../world/schema/index.ts";
import { didYouMean } from "../world/suggest.ts";
import type { StepContext } from "./context.ts";
import type { Env } from "./env.ts";
import { EngineError } from "./errors.ts";
import { checkTurnInput } from "./input.ts";
import { openSession } from "./opening.ts";
import {
  checkPlayers,
  checkPorts,
  checkSeed,
  chooseStoryStart,
  type RestoreOptions,
  type SessionOptions,
} from "./options.ts";
import { answerQuest, type QuestAnswer } from "./quests.ts";
import { addLog, newRecorder } from "./record.ts";
import type { TurnResult } from "./result.ts";
import { MIN_READABLE_VERSION, readSave, SAVE_FORMAT, SAVE_VERSION, worldHash, writeSave } from "./save.ts";
import type { LogEntry, QuestStatus, SessionState } from "./state.ts";
import type { QuestChange } from "./trace.ts";
import { playTurn, type TurnHooks, type TurnInput } from "./turn.ts";
import { prepareWorld } from "./world-check.ts";
import { indexWorld } from "./world-index.ts";

export interface QuestAnswerResult {
  quest: string;
  status: QuestStatus;
  changes: QuestChange[];
  logs: LogEntry[];
}

/**
 * A running game. It holds the world, the ports and the current state, and
 * applies the pure steps (opening, turn) to it one at a time: a call made
 * while another is running is refused (`session/busy`), and a call that fails
 * leaves the state as it was.
 */
export class Session {
  readonly world: World;
  /** The opening (tick 0) of a created session; null for a restored one. */
  readonly opening: TurnResult | null;
  /**
   * For a restored session: whether the world was edited since the save, and
   * what the edit changed that matters to this game (show it to the player).
   * Null for a created session.
   */
  readonly resumed: { edited: boolean; warnings: readonly string[] } | null;
  /** A restored session's saved history (SaveFile.history), for its host to read; undefined otherwise. */
  readonly savedHistory: unknown;
  /** The save was read trusted (RestoreOptions.trustedSave taken): so may its history be (no schema check). */
  readonly savedHistoryTrusted: boolean;
  private current: SessionState;
  private readonly env: Env;
  private busy = false;

  constructor(
    env: Env,
    state: SessionState,
    opening: TurnResult | null,
    resumed: Session["resumed"] = null,
    savedHistory?: unknown,
    savedHistoryTrusted = false,
  ) {
    this.env = env;
    this.world = env.index.world;
    this.current = state;
    this.opening = opening;
    this.resumed = resumed;
    this.savedHistory = savedHistory;
    this.savedHistoryTrusted = savedHistoryTrusted;
  }

  /** A copy of the current state (plain JSON). */
  get state(): SessionState {
    return structuredClone(this.current);
  }

  /**
   * Reads the current state without copying it: `state` copies the whole
   * story each time, which made a long replay quadratic. The state is the
   * session's: `read` must not change it. What it keeps stays as it was: a
   * step replaces the state and never changes the previous one in place
   * (draft.ts; a quest answer changes a copy).
   */
  read<T>(read: (state: Readonly<SessionState>) => T): T {
    return read(this.current);
  }

  get tick(): number {
    return this.current.tick;
  }

  /** Plays one turn. Rejects with an EngineError (and changes nothing) on bad input or an AI failure. */
  async turn(input: TurnInput, hooks: TurnHooks = {}): Promise<TurnResult> {
    this.claim();
    try {
      const checked = checkTurnInput(this.current, input);
      const { state, result } = await playTurn(this.env, this.current, checked, hooks);
      this.current = state;
      return result;
    } finally {
      this.busy = false;
    }
  }

  /**
   * The player accepts an available quest (its acceptance prompt). `by` names the player whose
   * answer decided it, where a party answers together; the log then says who.
   */
  acceptQuest(name: string, by?: string): QuestAnswerResult {
    return this.answer(name, "accept", by);
  }

  /** The player declines an available quest (`by`: as for acceptQuest). */
  rejectQuest(name: string, by?: string): QuestAnswerResult {
    return this.answer(name, "reject", by);
  }

  /** The player gives up an accepted quest (`by`: as for acceptQuest). */
  abandonQuest(name: string, by?: string): QuestAnswerResult {
    return this.answer(name, "abandon", by);
  }

  /**
   * The session as JSON text: versioned, with the world's hash; resume it with restoreSession.
   * `history` is the host's history of the game (SaveFile.history), kept as given.
   */
  save(history?: unknown): string {
    return writeSave(this.world, this.current, this.env.maxJudged, history);
  }

  /**
   * Puts the game at a state it held before (a host's rewind or branch switch, issue 33). The
   * state must be one this session's steps made, or one `checkState` accepted: it is not checked
   * again. It is kept as given, never changed (steps work on a draft).
   */
  resetTo(state: SessionState): void {
    this.claim();
    this.current = state;
    this.busy = false;
  }

  /** A state from outside (a saved history's) checked as a save's is: the state to resume, or a coded error. */
  checkState(state: unknown): SessionState {
    const file = {
      format: SAVE_FORMAT,
      version: SAVE_VERSION,
      minReadableVersion: MIN_READABLE_VERSION,
      worldHash: worldHash(this.world),
      settings: { maxJudged: this.env.maxJudged },
      state,
    };
    return readSave(this.world, file).state;
  }

  private answer(name: unknown, answer: QuestAnswer, by: string | undefined): QuestAnswerResult {
    this.claim();
    try {
      const key = questKey(this.world, name);
      const state = structuredClone(this.current);
      const ctx: StepContext = { state, index: this.env.index, recorder: newRecorder() };
      const status = answerQuest(ctx, key, answer);
      addLog(state, ctx.recorder, {
        tick: state.tick,
        phase: "session",
        trigger: null,
        type: "notice",
        message: answerMessage(answer, key, status, by),
      });
      this.current = state;
      return { quest: key, status, changes: ctx.recorder.quests, logs: ctx.recorder.logs };
    } finally {
      this.busy = false;
    }
  }

  private claim() {
    if (this.busy) throw new EngineError("session/busy", "busy");
    this.busy = true;
  }
}

/** The log's line for a quest answer: a party's answer names the player whose answer decided it. */
function answerMessage(answer: QuestAnswer, key: string, status: string, by: string | undefined): string {
  const verb = answer === "accept" ? "accepted" : answer === "reject" ? "rejected" : "abandoned";
  if (by === undefined) return `The player ${verb} quest "${key}"; it is now ${status}.`;
  return `The party ${verb} quest "${key}" on ${by}'s answer; it is now ${status}.`;
}

/** A quest named by its key; a case-insensitive match is accepted when it is the only one. */
function questKey(world: World, name: unknown): string {
  if (typeof name !== "string") throw new EngineError("quest/unknown", "not-string");
  if (Object.hasOwn(world.quests, name)) return name;
  const keys = Object.keys(world.quests);
  const folded = keys.filter((k) => k.toLowerCase() === name.trim().toLowerCase());
  if (folded.length === 1) return folded[0]!;
  throw new EngineError(
    "quest/unknown",
    "unknown",
    { quest: name, suggestion: didYouMean(name, keys) },
    { quest: name },
  );
}

/**
 * Starts a game (tick 0): checks the world and the options, makes the party,
 * narrates the opening (streamed to `hooks.onChunk`) and runs the tick-0
 * triggers. `session.opening` holds what that produced.
 */
export async function createSession(
  world: unknown,
  options: SessionOptions,
  hooks: TurnHooks = {},
): Promise<Session> {
  const ports = checkPorts(options);
  const checked = prepareWorld(world, ports.validate);
  const index = indexWorld(checked);
  const storyStart = chooseStoryStart(checked, options.storyStart);
  const partyNpcs = (checked.storyStarts[storyStart]!.startingPartyNPCs ?? []).filter((k) =>
    Object.hasOwn(checked.npcs, k),
  );
  const players = checkPlayers(index, options.players, partyNpcs);
  const seed = checkSeed(options.seed);
  if (options.sessionId !== undefined && typeof options.sessionId !== "string") {
    throw new EngineError("options/invalid", "session-id");
  }
  const env: Env = { index, ai: ports.ai, scripts: ports.scripts, maxJudged: ports.maxJudged };
  const { state, result } = await openSession(
    env,
    {
      storyStart,
      players,
      seed,
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    },
    hooks,
  );
  return new Session(env, state, result);
}

/**
 * Resumes a saved session: on the same world, the next turn plays exactly as
 * it would have without the save. On an edited version of the world, the save
 * loads when it still fits, and `resumed.warnings` lists what the edit
 * changed that matters. Refuses a damaged or impossible save, one from a
 * newer engine, or one that does not fit the world, with a coded error that
 * lists every problem.
 */
export async function restoreSession(
  world: unknown,
  saved: unknown,
  options: RestoreOptions,
): Promise<Session> {
  const ports = checkPorts(options);
  const checked = prepareWorld(world, ports.validate);
  const { state, maxJudged, edited, warnings, history, trusted } = readSave(checked, saved, {
    trusted: options.trustedSave === true,
  });
  const env: Env = {
    index: indexWorld(checked),
    ai: ports.ai,
    scripts: ports.scripts,
    maxJudged: options.maxJudged === undefined ? maxJudged : ports.maxJudged,
  };
  return new Session(env, state, null, { edited, warnings }, history, trusted);
}
