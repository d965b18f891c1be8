import type { CassetteEntry } from "../ai/cassette.ts";
import { isAiError } from "../ai/errors.ts";
import type { Provider } from "../ai/provider.ts";
import { type RecordingProvider, recordProvider } from "../ai/recorded.ts";
import type { LogEntry, PlayerSpec, TurnResult } from "../engine/index.ts";
import { isEngineError } from "../engine/index.ts";
import type { ScriptRunner } from "../engine/ports.ts";
import { type GameInput, type GameSetup, Game as HostGame } from "../host/game.ts";
import type { World } from "../world/schema/index.ts";
import { newId } from "./auth.ts";
import { ApiError } from "./errors.ts";
import type { Logger } from "./logger.ts";
import { FailedTurns, failureReason } from "./retry.ts";
import {
  ANSWER_CLAIM,
  type Game,
  type NewEvent,
  type QuestAnswerRow,
  type Store,
  type Turn,
} from "./store/store.ts";
import { isStoreUnavailable } from "./store/unavailable.ts";
import { playerResult } from "./views.ts";
import type { WorldCache } from "./worlds.ts";

/** Makes the narrator (intent, narration, judge) for one step of a game. */
export type NarratorFactory = (world: World, game: { gameMode: string | null; narrator: string }) => Provider;

export interface RunnerOptions {
  store: Store;
  worlds: WorldCache;
  narrator: NarratorFactory;
  scripts: ScriptRunner | undefined;
  /** This process, in lease owners and logs. */
  process: string;
  /** How long a claim on a game holds: longer than any turn may take (narrator timeouts included). */
  leaseMs: number;
  /**
   * How many steps this process runs at once (0: no limit); the others wait their turn, first come
   * first served. A step gives its slot up while it waits for a remote model (not the offline
   * narrator, which works on this process's CPU), so slow models do not hold the others back.
   */
  maxSteps?: number;
  /** How long a quest answer waits for a step of its game in flight (default `ANSWER_WAIT_MS`). */
  answerWaitMs?: number;
  /** The waits before a failed turn runs again by itself (default `RETRY_DELAYS_MS`, src/server/retry.ts). */
  retryDelaysMs?: readonly number[];
  log: Logger;
}

/** The default of `maxSteps`: a step is mostly CPU on one event loop; two overlap one's store round trips. */
export const DEFAULT_MAX_STEPS = 2;

/** How long a quest answer waits for a step of its game in flight (a turn) before game/busy. */
export const ANSWER_WAIT_MS = 30_000;

/** How often a quest answer waiting for a step in flight looks whether it ended. */
const ANSWER_POLL_MS = 50;

/** A first-come, first-served limit on the steps running at once in this process. */
export class StepSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size > 0 ? size : Number.POSITIVE_INFINITY;
  }

  /** Waits for a slot; answers how long it waited (ms). */
  async take(): Promise<number> {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return 0;
    }
    const from = performance.now();
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return performance.now() - from;
  }

  /** Gives a slot back: to the first step waiting, if any. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }

  /** Steps waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}

/** Where a step's time went: `waitMs` waiting for a slot (before and during the step). */
interface StepClock {
  waitMs: number;
}

interface StepOutcome {
  kind: Turn["kind"];
  inputs: unknown;
  result: unknown;
  narration: string;
  trace: unknown;
  logs: LogEntry[];
  events: NewEvent[];
  /** The game's new status, when the step changes it (the opening starts the game). */
  status?: Game["status"];
  /** A player's quest answer, committed with the step that applies it. */
  answer?: QuestAnswerRow;
}

/**
 * Runs the steps that change a game (the opening, a turn, a quest answer):
 * claims the game, restores its last committed state, runs the step through
 * the host's Game with a recording narrator, and commits the new state, the
 * cassette entries, the log and the events in one transaction. A step that
 * fails commits nothing: the game stays at its previous state and the same
 * submissions can run again.
 */
export class Runner {
  private readonly running = new Set<Promise<unknown>>();
  /** Games whose turn failed because the store was unreachable: the sweeper tries them again. */
  private readonly retry = new Set<string>();
  /** Games whose turn failed (the narrator, a script): each runs again after a growing wait. */
  private readonly failures: FailedTurns;
  private stopping = false;
  private readonly slots: StepSlots;
  constructor(private readonly options: RunnerOptions) {
    this.slots = new StepSlots(options.maxSteps ?? DEFAULT_MAX_STEPS);
    this.failures = new FailedTurns(options.retryDelaysMs);
  }

  /** Starts a game: its opening becomes state row 0. */
  async open(game: Game, players: PlayerSpec[]): Promise<TurnResult> {
    let opening: TurnResult | null = null;
    await this.step(
      game,
      null,
      async (host) => {
        opening = host.session.opening;
        if (opening === null) throw new Error("a new session has an opening");
        return {
          kind: "opening",
          inputs: { players },
          result: playerResult(opening),
          narration: opening.story,
          trace: opening,
          logs: opening.logs,
          status: "running",
          events: [
            { audience: "all", kind: "game-started", data: { tick: 0 } },
            { audience: "all", kind: "turn", data: { seq: 0, ...playerResult(opening), actions: [] } },
            ...logEvent(opening.logs, 0),
          ],
        };
      },
      { players },
    );
    return opening!;
  }

  /**
   * Runs the game's next turn when every active player has submitted (or the
   * host forced it, or its timeout passed, with at least one action).
   * "waiting": not everyone has; "busy": another process or request is
   * running a step of this game. The claim is taken before the submissions
   * are read, and a submission is refused while a turn's claim holds, so a
   * turn never misses an acknowledged action. (A quest answer's claim lets
   * submissions in: its step reads none, and the turn after it reads them.)
   */
  async maybeTurn(gameId: string, force: boolean): Promise<"ran" | "waiting" | "busy" | "idle"> {
    try {
      const outcome = await this.tryTurn(gameId, force);
      this.retry.delete(gameId);
      if (outcome !== "busy") this.failures.settled(gameId);
      return outcome;
    } catch (error) {
      // Nothing was committed; nobody may ask again (every player has submitted), so this process does.
      if (asApiError(error).code === "server/unavailable") this.retry.add(gameId);
      else this.retry.delete(gameId);
      throw error;
    }
  }

  /** The games to try again (see `retry`), for the sweeper. */
  retrying(): string[] {
    return [...new Set([...this.retry, ...this.failures.due()])];
  }

  private async tryTurn(gameId: string, force: boolean): Promise<"ran" | "waiting" | "busy" | "idle"> {
    const { store } = this.options;
    const game = await store.game(gameId);
    if (game?.status !== "running") return "idle";
    const tick = game.tick + 1;
    const ready = async () => {
      // The active players and their submissions for this tick (one query).
      const { players, submitted } = await store.turnInputs(gameId, tick);
      const forced = force || game.forced_tick === tick || this.timedOut(game);
      if (force && submitted.length === 0) throw noActions();
      if (submitted.length === 0 || (!forced && submitted.length < players.length)) return null;
      const names = new Map(players.map((p) => [p.id, p.name]));
      return submitted.map((s) => ({ player: names.get(s.player_id)!, text: s.text }));
    };
    // A cheap look first; then a slot of this process, the claim, and the look that counts (no
    // submission gets in once claimed).
    if ((await ready()) === null) return "waiting";
    const clock: StepClock = { waitMs: await this.slots.take() };
    try {
      return await this.claimTurn(game, clock, ready);
    } finally {
      this.slots.give();
    }
  }

  private async claimTurn(
    game: Game,
    clock: StepClock,
    ready: () => Promise<{ player: string; text: string }[] | null>,
  ): Promise<"ran" | "waiting" | "busy"> {
    const { store } = this.options;
    const gameId = game.id;
    const owner = await this.acquire(game).catch((error) => {
      if (error instanceof ApiError && error.code === "game/busy") return null;
      throw error;
    });
    if (owner === null) return "busy";
    let actions: { player: string; text: string }[];
    try {
      const found = await ready();
      if (found === null) {
        await store.release(gameId, owner);
        return "waiting";
      }
      actions = found;
    } catch (error) {
      await store.release(gameId, owner).catch(() => {});
      throw error;
    }
    await this.track(
      this.claimed(game, owner, clock, async (host, chunk) => {
        const outcome = await host.apply({ type: "turn", actions }, { onChunk: chunk });
        const result = (outcome as { result: TurnResult }).result;
        const seen = playerResult(result);
        return {
          kind: "turn",
          inputs: { actions },
          result: seen,
          narration: result.story,
          trace: result,
          logs: result.logs,
          events: [
            { audience: "all", kind: "turn", data: { seq: game.seq, ...seen, actions } },
            ...logEvent(result.logs, result.tick),
          ],
        };
      }),
    );
    return "ran";
  }

  /**
   * Claims a running game for a quest answer. While another step holds it, waits (at most `answerWaitMs`)
   * for that step to end and reads the game again, so the answer is judged on the state it changes;
   * past that, game/busy with nothing stored.
   */
  async claimForAnswer(gameId: string): Promise<{ game: Game; owner: string }> {
    const { store } = this.options;
    const waitMs = this.options.answerWaitMs ?? ANSWER_WAIT_MS;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const game = await store.game(gameId);
      if (game?.status !== "running")
        throw new ApiError("game/state", "not-running", { status: game?.status ?? "ended" });
      if (game.lease_until === null || Number(game.lease_until) < Date.now()) {
        const owner = await this.acquire(game, ANSWER_CLAIM).catch((error) => {
          if (error instanceof ApiError && error.code === "game/busy") return null;
          throw error;
        });
        if (owner !== null) return { game, owner };
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new ApiError(
          "game/busy",
          "answer-waited",
          { seconds: Math.ceil(waitMs / 1000) },
          { game: gameId },
        );
      await new Promise((resolve) => setTimeout(resolve, Math.min(ANSWER_POLL_MS, left)));
    }
  }

  /**
   * Releases a claim taken by `claimForAnswer` that makes no step (an answer stored without
   * deciding the party's answer).
   */
  async releaseClaim(gameId: string, owner: string): Promise<void> {
    await this.options.store.release(gameId, owner);
  }

  /**
   * The party's answer to a quest prompt (accept, reject) or an abandon: one committed step, on the
   * claim `owner` took with `claimForAnswer`. The player's answer `row` and its `quest-answer` event
   * are committed with it: a step that fails stores neither.
   */
  async answer(
    game: Game,
    owner: string,
    player: string,
    quest: string,
    answer: "accept" | "reject" | "abandon",
    row: QuestAnswerRow,
    announced: NewEvent,
  ) {
    let outcome: unknown;
    await this.step(game, owner, async (host) => {
      const done = await host.apply({ type: "answer", quest, answer, by: player } satisfies GameInput);
      const result = (done as { result: { quest: string; status: string; logs: LogEntry[] } }).result;
      outcome = { quest: result.quest, status: result.status };
      return {
        kind: "answer",
        inputs: { player, quest, answer },
        result: outcome,
        narration: "",
        trace: null,
        logs: result.logs,
        answer: row,
        events: [
          announced,
          {
            audience: "all",
            kind: "quest",
            data: { player, quest: result.quest, answer, status: result.status },
          },
          ...logEvent(result.logs, game.tick),
        ],
      };
    });
    return outcome as { quest: string; status: string };
  }

  private timedOut(game: Game): boolean {
    return (
      game.turn_timeout_ms !== null &&
      game.turn_opened_at !== null &&
      Date.now() - game.turn_opened_at >= game.turn_timeout_ms
    );
  }

  /** Runs a step on the claim `claim` (taken here when null). */
  private async step(
    game: Game,
    claim: string | null,
    run: (host: HostGame, chunk: (text: string) => void) => Promise<StepOutcome>,
    fresh?: { players: PlayerSpec[] },
  ): Promise<void> {
    const clock: StepClock = { waitMs: await this.slots.take() };
    try {
      const owner = claim ?? (await this.acquire(game));
      await this.track(this.claimed(game, owner, clock, run, fresh));
    } finally {
      this.slots.give();
    }
  }

  /**
   * Claims the game at its current seq, or fails with game/busy. `kind`: ANSWER_CLAIM for a quest
   * answer's claim, under which submissions are still stored (see Store.addSubmission).
   */
  private async acquire(game: Game, kind = ""): Promise<string> {
    if (this.stopping) throw new ApiError("server/unavailable", "shutting-down");
    const owner = `${kind}${this.options.process}/${newId()}`;
    if (!(await this.options.store.lease(game.id, game.seq, owner, Date.now() + this.options.leaseMs)))
      throw new ApiError("game/busy", "leased", {}, { game: game.id });
    return owner;
  }

  private async track(work: Promise<void>): Promise<void> {
    this.running.add(work);
    try {
      await work;
    } finally {
      this.running.delete(work);
    }
  }

  private async claimed(
    game: Game,
    owner: string,
    clock: StepClock,
    run: (host: HostGame, chunk: (text: string) => void) => Promise<StepOutcome>,
    fresh?: { players: PlayerSpec[] },
  ): Promise<void> {
    const { store, log } = this.options;
    const started = performance.now();
    const waitedBefore = clock.waitMs;
    // Where the step's time went, for the step log: each phase from the end of the one before.
    let mark = started;
    const lap = () => {
      const now = performance.now();
      const took = now - mark;
      mark = now;
      return Math.round(took * 10) / 10;
    };
    let provider: RecordingProvider | undefined;
    try {
      const world = await this.options.worlds.get(game.world_hash);
      const last = fresh ? undefined : await store.lastTurn(game.id);
      const restoreMs = lap();
      if (!fresh && !last) throw new ApiError("game/state", "not-started");
      const entries: CassetteEntry[] = [];
      const narrator = this.options.narrator(world, { gameMode: game.game_mode, narrator: game.narrator });
      provider = recordProvider(narrator.name === "offline" ? narrator : this.yielding(narrator, clock), {
        write: (entry) => entries.push(entry),
      });
      const setup: GameSetup = last
        ? { seed: game.seed, gameMode: game.game_mode, load: last.state }
        : {
            seed: game.seed,
            gameMode: game.game_mode,
            ...(game.story_start !== null ? { storyStart: game.story_start } : {}),
            players: fresh!.players,
          };
      const tick = game.tick + (fresh ? 0 : 1);
      const chunk = (text: string) => {
        void store.bus.publish({ game: game.id, kind: "chunk", tick, text }).catch(() => {});
      };
      const host = await HostGame.start(
        world,
        { ai: provider, scripts: this.options.scripts },
        setup,
        provider,
        {
          onChunk: fresh ? chunk : undefined,
        },
      );
      const startMs = lap();
      const waitedBeforeRun = clock.waitMs;
      const outcome = await run(host, chunk);
      const runMs = Math.max(0, lap() - (clock.waitMs - waitedBeforeRun));
      const usage = provider.usage();
      const row: Turn = {
        game_id: game.id,
        seq: game.seq,
        kind: outcome.kind,
        tick: host.session.tick,
        state: host.save(),
        inputs: JSON.stringify(outcome.inputs),
        cassette: JSON.stringify(entries),
        trace: outcome.trace === null ? null : JSON.stringify(outcome.trace),
        result: JSON.stringify(outcome.result),
        narration: outcome.narration,
        created_at: Date.now(),
      };
      const logs = outcome.logs.map((l) => ({
        tick: l.tick,
        phase: l.phase,
        trigger: l.trigger,
        type: l.type,
        message: l.message,
      }));
      const saveMs = lap();
      if (
        !(await store.commitStep(
          row,
          owner,
          logs,
          outcome.events,
          outcome.status ? { status: outcome.status } : {},
          outcome.answer,
        ))
      )
        throw new ApiError("game/busy", "taken-over", {}, { game: game.id });
      const commitMs = lap();
      log.info(
        {
          game: game.id,
          seq: row.seq,
          tick: row.tick,
          kind: row.kind,
          // The step's own time (restore, engine, narrator, commit), without its waits for a slot.
          durationMs: Math.round(performance.now() - started - (clock.waitMs - waitedBefore)),
          waitMs: Math.round(clock.waitMs),
          // restore: the world and the last state read; start: the session restored from it; run: the
          // step in the engine (sandbox and narrator included, waits for a slot not); save: the new
          // state and the turn row serialised; commit: the transaction.
          phases: { restoreMs, startMs, runMs, saveMs, commitMs },
          aiCalls: usage.calls,
          promptTokens: usage.promptTokens,
          completionTokens: usage.completionTokens,
        },
        "step committed",
      );
    } catch (error) {
      await store.release(game.id, owner).catch(() => {});
      const failure = asApiError(error);
      if (failure.code === "turn/failed") {
        // Players are told one plain sentence and when it runs again; the host's drawer gets the cause.
        const tick = game.tick + (fresh ? 0 : 1);
        const reason = failureReason(failure);
        const notice = fresh
          ? {
              tick,
              reason,
              message: `${reason} The host can start the game again.`,
              retryAt: null,
              attempt: 1,
            }
          : this.failures.failed(game.id, tick, failure);
        await store
          .addEvents(game.id, [
            { audience: "all", kind: "turn-failed", data: notice },
            {
              audience: "host",
              kind: "turn-failure",
              data: { tick, cause: failure.message, code: failure.code, details: failure.details },
            },
          ])
          .catch(() => {});
      }
      if (failure.code === "server/internal") log.error({ game: game.id, err: error }, "step failed");
      else
        log.warn(
          { game: game.id, code: failure.code, durationMs: Math.round(performance.now() - started) },
          failure.message,
        );
      throw failure;
    } finally {
      await provider?.close().catch(() => {});
    }
  }

  /**
   * The provider with its calls made outside this step's slot: while a remote model answers, another
   * step runs. The step takes a slot again (waiting its turn) before it goes on.
   */
  private yielding(inner: Provider, clock: StepClock): Provider {
    const outside = async <T>(call: () => Promise<T>): Promise<T> => {
      this.slots.give();
      try {
        return await call();
      } finally {
        clock.waitMs += await this.slots.take();
      }
    };
    const wrapped: Provider = {
      name: inner.name,
      model: inner.model,
      usage: () => inner.usage(),
      close: () => inner.close(),
      classify: (request, signal) => outside(() => inner.classify(request, signal)),
      narrate: (request, onChunk, signal) => outside(() => inner.narrate(request, onChunk, signal)),
      judge: (request, signal) => outside(() => inner.judge(request, signal)),
    };
    if (inner.sampling) wrapped.sampling = () => inner.sampling!();
    if (inner.embed) {
      const embed = inner.embed.bind(inner);
      wrapped.embed = (texts, signal) => outside(() => embed(texts, signal));
    }
    if (inner.summarise) {
      const summarise = inner.summarise.bind(inner);
      wrapped.summarise = (request, signal) => outside(() => summarise(request, signal));
    }
    return wrapped;
  }

  /** Stops taking new steps and waits (at most `ms`) for those running. */
  async drain(ms: number): Promise<boolean> {
    this.stopping = true;
    const all = Promise.allSettled([...this.running]).then(() => true);
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
    return Promise.race([all, timeout]);
  }
}

function logEvent(logs: LogEntry[], tick: number): NewEvent[] {
  return logs.length > 0 ? [{ audience: "host", kind: "log", data: { tick, entries: logs } }] : [];
}

function noActions(): ApiError {
  return new ApiError("turn/no-actions", "run-empty");
}

/** An engine refusal (bad quest, bad input) or an AI failure, as the API says it. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isEngineError(error)) {
    const code = (error as { code: string }).code;
    if (code.startsWith("ai/") || code === "session/busy")
      return new ApiError("turn/failed", "engine-failed", { reason: error.message }, { engine: code });
    return new ApiError("engine/refused", "engine-refused", { reason: error.message }, { engine: code });
  }
  if (isAiError(error))
    return new ApiError("turn/failed", "narrator-failed", { kind: error.kind }, { ai: error.kind });
  if (isStoreUnavailable(error)) return new ApiError("server/unavailable", "store-unreachable");
  return new ApiError("server/internal", "unexpected");
}
