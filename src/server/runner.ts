import type { CassetteEntry } from "../ai/cassette.ts";
import { isAiError } from "../ai/errors.ts";
import type { Provider } from "../ai/provider.ts";
import { type RecordingProvider, recordProvider } from "../ai/recorded.ts";
import type { LogEntry, PlayerSpec, TurnResult } from "../engine/index.ts";
import { isEngineError } from "../engine/index.ts";
import type { ScriptRunner } from "../engine/ports.ts";
import { isHostError } from "../host/errors.ts";
import { type GameInput, type GameSetup, Game as HostGame } from "../host/game.ts";
import { pathTo, pruneHistory } from "../host/history.ts";
import type { World } from "../world/schema/index.ts";
import { newId } from "./auth.ts";
import { ApiError } from "./errors.ts";
import { gameEvents } from "./events.ts";
import { LiveNarrations } from "./live-narration.ts";
import type { Logger } from "./logger.ts";
import { FailedTurns, failureReason } from "./retry.ts";
import {
  ANSWER_CLAIM,
  type Game,
  type LastTurn,
  type NewEvent,
  type QuestAnswerRow,
  type Store,
  type Turn,
  type TurnInputs,
} from "./store/store.ts";
import { isStoreUnavailable } from "./store/unavailable.ts";
import { narrativeNotes, playerResult, playerState, questStatuses } from "./views.ts";
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
  /**
   * How long a claim on a game holds without being renewed (default `LEASE_MS`). A step renews its
   * claim every quarter of it (a heartbeat) for as long as it runs, so a long model call keeps its
   * game, and a claim of a process that died lapses within `leaseMs`.
   */
  leaseMs?: number;
  /**
   * When a failed step (the narrator failed, a bug) is due again: ms from now, for the sweep
   * (default `retryDelayMs`: 5 s for a narrator failure, 60 s for anything else).
   */
  retryDelayMs?: (failure: ApiError, game: Game) => number;
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

type Action = { player: string; text: string };

/**
 * The default of `maxSteps`: a step is mostly CPU on one event loop; a few at once overlap their store
 * and script-process round trips. Three, measured (issue 38, round 5: 50 turns at once on one
 * process, quiet): end-to-end p99 on SQLite 237-269 ms with 2, 209-213 with 3, 211-218 with 4; on
 * PostgreSQL 217-311, 186-209, 207-246; CPU per turn the same. The CLI's default (cli/commands/serve.ts)
 * says the same number.
 */
export const DEFAULT_MAX_STEPS = 3;

/** The default claim length: a dead process's claim lapses within it (see RunnerOptions.leaseMs). */
export const LEASE_MS = 5000;

/**
 * The longest a process renews one claim: a step that has not ended by then (a hung engine, a claim a
 * bug never released) lets its game go to another process instead of holding it for ever.
 */
export const MAX_HOLD_MS = 10 * 60_000;

/** After how many turns in a row whose scripts ran out of their budget a game's steps go last. */
export const SLOW_AFTER = 2;

/** After how many such turns in a row the game is paused, with a message to its host. */
export const PAUSE_AFTER = 8;

/** retry_at of a failed turn past its last wait: it runs again only when someone asks (Retry, a forced turn). */
const WAITS_FOR_RETRY = Number.MAX_SAFE_INTEGER;

/** The default of RunnerOptions.retryDelayMs (failures other than the turn's own: those back off by retry.ts). */
export function retryDelayMs(failure: ApiError): number {
  return failure.code === "turn/failed" ? 5000 : 60_000;
}

/** How long a quest answer waits for a step of its game in flight (a turn) before game/busy. */
export const ANSWER_WAIT_MS = 30_000;

/** How often a quest answer waiting for a step in flight looks whether it ended. */
const ANSWER_POLL_MS = 50;

/** Whose a step is, for the fair share of slots: its game and the game's host. */
export interface StepKey {
  game: string;
  host: string;
  /** A game whose scripts keep running out of their budget: served after every other step waiting. */
  slowed?: boolean;
  /** A step that holds no claim yet: at shutdown it is handed back (its game stays due in the store). */
  unclaimed?: boolean;
}

const ANYONE: StepKey = { game: "", host: "" };

/** How many hosts StepSlots remembers when it last served (the oldest are forgotten first). */
const SERVED_HOSTS = 10_000;

interface Waiter {
  key: StepKey;
  arrived: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A limit on the steps running at once in this process, shared fairly: a free slot goes to the step
 * waiting whose host has the fewest steps running (then the host served longest ago), then whose
 * game has the fewest, then the one that came first; a slowed game's steps go after all others, and
 * never hold every slot (one is kept for the others). So a host with many busy games, or a game whose
 * scripts loop to their budget, waits behind its own steps and not in front of everyone else's.
 * Without keys it is first come, first served.
 */
export class StepSlots {
  private free: number;
  /** How many slowed steps may run at once: all slots but one, so one is always kept for the others. */
  private readonly slowedMax: number;
  private slowedRunning = 0;
  private readonly waiting: Waiter[] = [];
  private readonly runningByHost = new Map<string, number>();
  private readonly runningByGame = new Map<string, number>();
  private readonly servedAt = new Map<string, number>();
  private arrivals = 0;
  private serves = 0;
  constructor(size: number) {
    this.free = size > 0 ? size : Number.POSITIVE_INFINITY;
    this.slowedMax = size > 0 ? Math.max(1, size - 1) : Number.POSITIVE_INFINITY;
  }

  /** Waits for a slot; answers how long it waited (ms). Rejects when `handBack` is called meanwhile. */
  async take(key: StepKey = ANYONE): Promise<number> {
    const from = performance.now();
    let given = false;
    const turn = new Promise<void>((resolve, reject) =>
      this.waiting.push({
        key,
        arrived: this.arrivals++,
        resolve: () => {
          given = true;
          resolve();
        },
        reject,
      }),
    );
    this.dispatch();
    if (given) return 0;
    await turn;
    return performance.now() - from;
  }

  /** Gives a slot back: to the step waiting that comes first by the fair order, if any. */
  give(key: StepKey = ANYONE): void {
    this.leave(key);
    this.free++;
    this.dispatch();
  }

  /** Hands the free slots to the steps waiting, in the fair order. */
  private dispatch(): void {
    while (this.free > 0) {
      const next = this.next();
      if (!next) return;
      this.free--;
      this.enter(next.key);
      next.resolve();
    }
  }

  /** Refuses every step waiting that holds no claim (shutdown): `error` is what they are told. */
  handBack(error: unknown): void {
    for (const w of [...this.waiting])
      if (w.key.unclaimed) {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        w.reject(error);
      }
  }

  /** Steps waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private next(): Waiter | undefined {
    let best: Waiter | undefined;
    let bestRank: number[] = [];
    for (const w of this.waiting) {
      // A slowed step waits while its lane is full, even with a slot free: that slot is the others'.
      if (w.key.slowed && this.slowedRunning >= this.slowedMax) continue;
      const rank = [
        w.key.slowed ? 1 : 0,
        this.runningByHost.get(w.key.host) ?? 0,
        this.servedAt.get(w.key.host) ?? -1,
        this.runningByGame.get(w.key.game) ?? 0,
        w.arrived,
      ];
      if (best === undefined || before(rank, bestRank)) {
        best = w;
        bestRank = rank;
      }
    }
    if (best) this.waiting.splice(this.waiting.indexOf(best), 1);
    return best;
  }

  private enter(key: StepKey): void {
    if (key.slowed) this.slowedRunning++;
    this.runningByHost.set(key.host, (this.runningByHost.get(key.host) ?? 0) + 1);
    this.runningByGame.set(key.game, (this.runningByGame.get(key.game) ?? 0) + 1);
    // Re-inserted, so the map's first entries are the hosts served longest ago: the ones forgotten when
    // it grows past SERVED_HOSTS (a forgotten host ranks as never served, which only helps it).
    this.servedAt.delete(key.host);
    this.servedAt.set(key.host, this.serves++);
    if (this.servedAt.size > SERVED_HOSTS) this.servedAt.delete(this.servedAt.keys().next().value!);
  }

  private leave(key: StepKey): void {
    if (key.slowed) this.slowedRunning--;
    for (const [map, id] of [
      [this.runningByHost, key.host],
      [this.runningByGame, key.game],
    ] as const) {
      const n = (map.get(id) ?? 1) - 1;
      if (n <= 0) map.delete(id);
      else map.set(id, n);
    }
  }
}

/** Lexicographic order of two ranks. */
function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** Where a step's time went: `waitMs` waiting for a slot (before and during the step). */
interface StepClock {
  waitMs: number;
  /** When the step took its slot (performance.now()): its claim's time is from there to the step's start. */
  slotAt: number;
  /** Whose step it is, for the fair share of slots. */
  key: StepKey;
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
  /** The step this one was played from, when not the game's head (a retry, an alter: the head's parent). */
  parent?: number | null;
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
  /** Games with a turn of this process waiting for a slot or running: the sweep leaves them be. */
  private readonly local = new Set<string>();
  /** The claims this process holds, by owner: their game and heartbeat. */
  private readonly held = new Map<string, { game: string; beat: NodeJS.Timeout }>();
  /** Turns of this process's games that failed (the narrator, a script): attempts and backoff (retry.ts). */
  private readonly failures: FailedTurns;
  private stopping = false;
  /** The narrations this process is writing, replayed to a stream that opens mid-way (live-narration.ts). */
  private readonly live: LiveNarrations;
  private readonly slots: StepSlots;
  private readonly leaseMs: number;
  /** The claims (owners) of story-control steps running (a retry, an alter). */
  private readonly controls = new Set<string>();
  constructor(private readonly options: RunnerOptions) {
    this.slots = new StepSlots(options.maxSteps ?? DEFAULT_MAX_STEPS);
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.failures = new FailedTurns(options.retryDelaysMs);
    this.live = new LiveNarrations(options.store.bus);
  }

  /** Starts a game: its opening becomes state row 0. */
  async open(game: Game, players: PlayerSpec[]): Promise<TurnResult> {
    let opening: TurnResult | null = null;
    await this.step(
      game,
      null,
      async (host, _chunk, world) => {
        opening = host.session.opening;
        if (opening === null) throw new Error("a new session has an opening");
        return {
          kind: "opening",
          inputs: { players },
          result: playerResult(opening, host.session.read(questStatuses)),
          narration: opening.story,
          trace: opening,
          logs: opening.logs,
          status: "running",
          events: [
            gameEvents.gameStarted({ tick: 0 }),
            gameEvents.turn({
              seq: 0,
              ...playerResult(opening, host.session.read(questStatuses)),
              actions: [],
              state: host.session.read((state) => playerState(state, world)),
              notes: narrativeNotes(opening.diff, world, 0),
            }),
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
    // One turn of a game at a time per process: a second ask while one waits or runs has nothing to
    // add (the one waiting reads the submissions once it holds the claim; the sweep backs up the rest).
    if (this.local.has(gameId)) return "busy";
    this.local.add(gameId);
    try {
      const outcome = await this.tryTurn(gameId, force);
      if (outcome !== "busy") this.failures.settled(gameId);
      return outcome;
    } finally {
      this.local.delete(gameId);
    }
  }

  /** Whether this process has a turn of the game waiting for a slot or running. */
  has(gameId: string): boolean {
    return this.local.has(gameId);
  }

  /** Whether this process is draining (SIGTERM): it takes no new step. */
  get draining(): boolean {
    return this.stopping;
  }

  private async tryTurn(gameId: string, force: boolean): Promise<"ran" | "waiting" | "busy" | "idle"> {
    const { store } = this.options;
    // The game and the inputs of its next turn (one query on PostgreSQL).
    const { game, inputs } = await store.gameForTurn(gameId);
    if (game?.status !== "running" || inputs === undefined) return "idle";
    const tick = game.tick + 1;
    const ready = ({ players, submitted }: TurnInputs) => {
      const forced = force || game.forced_tick === tick || this.timedOut(game);
      if (force && submitted.length === 0) throw noActions();
      if (submitted.length === 0 || (!forced && submitted.length < players.length)) return null;
      const names = new Map(players.map((p) => [p.id, p.name]));
      return submitted.map((s) => ({ player: names.get(s.player_id)!, text: s.text }));
    };
    // A cheap look first; then a slot of this process, the claim, and the look that counts (no
    // submission gets in once claimed).
    if (ready(inputs) === null) return "waiting";
    const key = this.keyOf(game);
    const clock: StepClock = {
      waitMs: await this.slots.take({ ...key, unclaimed: true }),
      slotAt: performance.now(),
      key,
    };
    try {
      return await this.claimTurn(game, clock, ready);
    } finally {
      this.slots.give(key);
    }
  }

  /**
   * A game's step's place in the fair share of slots. Its host is who made the game (its creator's
   * address), so a client that makes many games gets one host's share, not one per game; a game made
   * before creators were kept counts as a host of its own. Its strikes are read from the store.
   */
  private keyOf(game: Game): StepKey {
    return {
      game: game.id,
      host: game.creator ?? `game:${game.host_token_hash}`,
      slowed: Number(game.budget_strikes ?? 0) >= SLOW_AFTER,
    };
  }

  private async claimTurn(
    game: Game,
    clock: StepClock,
    ready: (inputs: TurnInputs) => { player: string; text: string }[] | null,
  ): Promise<"ran" | "waiting" | "busy"> {
    const gameId = game.id;
    const { store } = this.options;
    // The claim and the inputs read once it holds (and, on PostgreSQL, the state the turn starts from),
    // in one query where the store can.
    let claim: { inputs: TurnInputs; last?: LastTurn } | undefined;
    const owner = await this.acquire(game, "", async (owner, until) => {
      claim = await store.claimTurn(game, owner, until, game.tick + 1);
      return claim !== undefined;
    }).catch((error) => {
      if (error instanceof ApiError && error.code === "game/busy") return null;
      throw error;
    });
    if (owner === null || claim === undefined) return "busy";
    const { inputs, last } = claim;
    let actions: { player: string; text: string }[];
    try {
      const found = ready(inputs);
      if (found === null) {
        await this.release(gameId, owner);
        return "waiting";
      }
      actions = found;
    } catch (error) {
      await this.release(gameId, owner).catch(() => {});
      throw error;
    }
    let overBudget = false;
    await this.track(
      this.claimed(
        game,
        owner,
        clock,
        async (host, chunk, world) => {
          const outcome = await host.apply({ type: "turn", actions }, { onChunk: chunk });
          const result = (outcome as { result: TurnResult }).result;
          overBudget = result.trace.phases.some((phase) => scriptsOverBudget(phase));
          // The views read the session's state in place (`session.state` would copy all of it, twice a
          // turn): they change nothing, and what they share with it is serialised at the commit.
          const seen = playerResult(result, host.session.read(questStatuses));
          return {
            kind: "turn",
            inputs: { actions },
            result: seen,
            narration: result.story,
            trace: result,
            logs: result.logs,
            events: [
              gameEvents.turn({
                seq: game.seq,
                ...seen,
                actions,
                state: host.session.read((state) => playerState(state, world)),
                notes: narrativeNotes(result.diff, world, result.tick),
              }),
              ...logEvent(result.logs, result.tick),
            ],
          };
        },
        undefined,
        last,
      ),
    );
    await this.countStrike(game, overBudget);
    return "ran";
  }

  /**
   * Counts a turn whose scripts ran out of their budget: after SLOW_AFTER in a row the game's steps go
   * after everyone else's; after PAUSE_AFTER it is paused, and its host told why.
   */
  private async countStrike(game: Game, overBudget: boolean): Promise<void> {
    // Nothing to write for a game with no strikes whose turn stayed within its budget (most turns).
    if (!overBudget && Number(game.budget_strikes ?? 0) === 0) return;
    const strikes = await this.options.store.countBudgetStrike(game.id, overBudget);
    if (strikes < PAUSE_AFTER) return;
    // The count starts again, the game still slowed: resumed, it is paused again after PAUSE_AFTER -
    // SLOW_AFTER more such turns, and one turn within the budget forgives it.
    await this.options.store.setBudgetStrikes(game.id, SLOW_AFTER);
    const paused = await this.options.store
      .setStatus(
        game.id,
        ["running"],
        "paused",
        gameEvents.status({
          status: "paused",
          reason: "script-budget",
          message: `The game was paused: its scripts ran out of their time budget in ${strikes} turns in a row, which slows every game on this server. The world's author should make them stop sooner; the host can resume the game.`,
        }),
      )
      .catch(() => false);
    if (paused)
      this.options.log.warn(
        { game: game.id, turns: strikes },
        "game paused: its scripts keep running out of budget",
      );
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
    for (let look = 0; ; look++) {
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
      // Said once per answer: the tests order their steps by it (a turn held in flight, an answer waiting for it).
      if (look === 0) this.options.log.debug({ game: gameId }, "a quest answer waits for the step in flight");
      await new Promise((resolve) => setTimeout(resolve, Math.min(ANSWER_POLL_MS, left)));
    }
  }

  /**
   * Releases a claim taken by `claimForAnswer` that makes no step (an answer stored without
   * deciding the party's answer).
   */
  async releaseClaim(gameId: string, owner: string): Promise<void> {
    await this.release(gameId, owner);
  }

  /** Ends a claim of this process: its heartbeat stops, and the game is free for any process. */
  private async release(gameId: string, owner: string): Promise<void> {
    this.stopBeat(owner);
    await this.options.store.release(gameId, owner);
  }

  private stopBeat(owner: string): void {
    const hold = this.held.get(owner);
    if (!hold) return;
    clearInterval(hold.beat);
    this.held.delete(owner);
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
    await this.step(game, owner, async (host, _chunk, world) => {
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
          gameEvents.quest({
            seq: game.seq,
            tick: host.session.tick,
            player,
            quest: result.quest,
            answer,
            status: result.status,
            state: host.session.read((state) => playerState(state, world)),
          }),
          ...logEvent(result.logs, game.tick),
        ],
      };
    });
    return outcome as { quest: string; status: string };
  }

  /**
   * Claims the game for a story control (undo, retry, alter, rewind, a branch switch): at once or
   * game/busy, never waiting (a control is a decision about the state its caller saw). The claim is
   * taken at the game's seq as read here: `expected`, the head the caller saw, must still be the head.
   */
  async claimForControl(
    gameId: string,
    expected: number | undefined,
  ): Promise<{ game: Game; owner: string }> {
    const game = await this.options.store.game(gameId);
    if (!game || game.status === "ended") throw new ApiError("game/state", "ended");
    if (game.status === "lobby" || game.head == null) throw new ApiError("game/state", "not-started");
    if (expected !== undefined && Number(game.head) !== expected)
      throw new ApiError(
        "game/state",
        "head-moved",
        { head: Number(game.head), expected },
        { head: Number(game.head), expected },
      );
    const owner = await this.acquire(game);
    return { game, owner };
  }

  /**
   * Moves the game's head to a stored step (undo, rewind, a branch switch) on the claim `owner`,
   * with its events. The claim ends either way.
   */
  async moveHead(game: Game, owner: string, head: { seq: number; tick: number }, events: NewEvent[]) {
    try {
      const moved = await this.options.store.moveHead(game.id, game.seq, owner, head, events);
      if (!moved) throw new ApiError("game/busy", "taken-over", {}, { game: game.id });
    } finally {
      await this.release(game.id, owner).catch(() => {});
    }
  }

  /**
   * Runs the game's last turn again from the step before it with the same actions and a new draw
   * (host Game's retry), on the claim `owner`: the new step is a sibling of the one it replaces, which
   * stays. Its events: `turn-retried` (what fired differently), then the new `turn`.
   */
  async retry(game: Game, owner: string, replaced: { seq: number; parent: number | null }, least: number) {
    let answer: { draw: number; gained: string[]; lost: string[]; tick: number } | undefined;
    await this.controlStep(game, owner, async (host, chunk, world) => {
      const outcome = await host.apply({ type: "retry", draw: least } satisfies GameInput, {
        onChunk: chunk,
      });
      if (outcome.type !== "retry") throw new Error("a retry answers a retry");
      const result = outcome.result;
      const actions =
        (host.history.nodes.get(host.history.head)?.input as { actions?: Action[] } | undefined)?.actions ??
        [];
      const seen = playerResult(result, host.session.read(questStatuses));
      answer = {
        draw: outcome.draw,
        gained: outcome.fired.gained,
        lost: outcome.fired.lost,
        tick: result.tick,
      };
      return {
        kind: "turn",
        parent: replaced.parent,
        inputs: { actions, retryOf: replaced.seq, draw: outcome.draw },
        result: seen,
        narration: result.story,
        trace: result,
        logs: result.logs,
        events: [
          gameEvents.turnRetried({
            seq: game.seq,
            replaced: replaced.seq,
            tick: result.tick,
            draw: outcome.draw,
            gained: outcome.fired.gained,
            lost: outcome.fired.lost,
          }),
          gameEvents.turn({
            seq: game.seq,
            ...seen,
            actions,
            state: host.session.read((state) => playerState(state, world)),
            notes: narrativeNotes(result.diff, world, result.tick),
          }),
          ...logEvent(result.logs, result.tick),
        ],
      };
    });
    return { seq: game.seq, replaced: replaced.seq, ...answer! };
  }

  /**
   * Replaces the text of the game's last narration (host Game's alter: what later conditions and the
   * narrator's history see), on the claim `owner`: the altered step is a new sibling of the head, which
   * stays as the original; the head's log says who altered it. Its event: `narration-altered`.
   */
  async alter(
    game: Game,
    owner: string,
    head: Pick<Turn, "seq" | "parent" | "kind" | "inputs" | "result" | "trace">,
    text: string,
    by: string,
  ) {
    let answer: { tick: number; text: string; by: string } | undefined;
    await this.controlStep(game, owner, async (host) => {
      const outcome = await host.apply({ type: "alter", text, by } satisfies GameInput);
      if (outcome.type !== "alter") throw new Error("an alter answers an alter");
      answer = { tick: outcome.turn, text: outcome.text, by: outcome.by };
      // The notice the alter logged (who altered what), for the host's log.
      const notice = host.session.read((s) => s.log.at(-1));
      // The step's own inputs (its actions); what it replaced is the head, not what the head replaced.
      const {
        retryOf: _retry,
        draw: _draw,
        altered: _altered,
        ...inputs
      } = JSON.parse(head.inputs) as Record<string, unknown>;
      const result = JSON.parse(head.result) as Record<string, unknown>;
      return {
        kind: head.kind,
        parent: head.parent,
        inputs: { ...inputs, altered: { from: head.seq, by: outcome.by } },
        result: { ...result, story: outcome.text },
        narration: outcome.text,
        // The trace of the turn whose words changed: what ran is the same.
        trace: head.trace === null ? null : (JSON.parse(head.trace) as unknown),
        logs: notice ? [notice] : [],
        events: [
          gameEvents.narrationAltered({
            seq: game.seq,
            replaced: head.seq,
            tick: outcome.turn,
            text: outcome.text,
            by: outcome.by,
          }),
        ],
      };
    });
    return { seq: game.seq, replaced: head.seq, ...answer! };
  }

  /** A story control's step: on failure its error answers the request, and nothing is scheduled. */
  private async controlStep(
    game: Game,
    owner: string,
    run: (host: HostGame, chunk: (text: string) => void, world: World) => Promise<StepOutcome>,
  ): Promise<void> {
    this.controls.add(owner);
    try {
      await this.step(game, owner, run);
    } finally {
      this.controls.delete(owner);
    }
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
    run: (host: HostGame, chunk: (text: string) => void, world: World) => Promise<StepOutcome>,
    fresh?: { players: PlayerSpec[] },
  ): Promise<void> {
    const key = this.keyOf(game);
    const clock: StepClock = { waitMs: await this.slots.take(key), slotAt: performance.now(), key };
    try {
      const owner = claim ?? (await this.acquire(game));
      await this.track(this.claimed(game, owner, clock, run, fresh));
    } finally {
      this.slots.give(key);
    }
  }

  /**
   * Claims the game at its current seq, or fails with game/busy. `kind`: ANSWER_CLAIM for a quest
   * answer's claim, under which submissions are still stored (see Store.addSubmission).
   */
  private async acquire(
    game: Game,
    kind = "",
    claim = (owner: string, until: number) => this.options.store.lease(game.id, game.seq, owner, until),
  ): Promise<string> {
    if (this.stopping) throw new ApiError("server/unavailable", "shutting-down");
    // Ends with this process's presence, when it has one: then another process frees the game as soon
    // as this one is gone (Store.releaseAbsentClaims), not when the claim lapses.
    const presence = this.options.store.open.presence;
    const owner = `${kind}${this.options.process}/${newId()}${presence === undefined ? "" : `@${presence}`}`;
    if (!(await claim(owner, Date.now() + this.leaseMs)))
      throw new ApiError("game/busy", "leased", {}, { game: game.id });
    this.beat(game.id, owner);
    return owner;
  }

  /**
   * Renews the claim every quarter of its length while this process holds it (at most MAX_HOLD_MS):
   * a step that waits for a slow model keeps its game, and a process that dies stops renewing, so its
   * claim lapses within one lease. A renewal that finds the claim gone stops; the step's commit is
   * then refused (nothing is applied twice).
   */
  private beat(game: string, owner: string): void {
    const since = Date.now();
    const beat = setInterval(
      () => {
        if (Date.now() - since > MAX_HOLD_MS) {
          this.stopBeat(owner);
          this.options.log.warn({ game, owner }, "a step held its game too long; its claim lapses");
          return;
        }
        void this.options.store.renew(game, owner, Date.now() + this.leaseMs).then(
          (kept) => {
            if (!kept) {
              this.stopBeat(owner);
              this.options.log.warn({ game, owner }, "a step lost its claim (it lapsed, or was taken over)");
            }
          },
          () => {},
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 4)),
    );
    beat.unref();
    this.held.set(owner, { game, beat });
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
    run: (host: HostGame, chunk: (text: string) => void, world: World) => Promise<StepOutcome>,
    fresh?: { players: PlayerSpec[] },
    /** The state the step starts from, when the claim read it (Store.claimTurn). */
    claimedLast?: LastTurn,
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
      const last = fresh ? undefined : (claimedLast ?? (await store.lastTurn(game.id)));
      const restoreMs = lap();
      if (!fresh && !last) throw new ApiError("game/state", "not-started");
      // The cassette's entries as JSON text: each is stringified once, as it is recorded.
      const entries: string[] = [];
      const narrator = this.options.narrator(world, { gameMode: game.game_mode, narrator: game.narrator });
      provider = recordProvider(narrator.name === "offline" ? narrator : this.yielding(narrator, clock), {
        write: (entry: CassetteEntry) => entries.push(JSON.stringify(entry)),
        writeJson: (text) => entries.push(text),
      });
      const setup: GameSetup = last
        ? // The server's own save, from its own store: not validated again at every step (imports are).
          { seed: game.seed, gameMode: game.game_mode, load: last.state, trustedLoad: true }
        : {
            seed: game.seed,
            gameMode: game.game_mode,
            ...(game.story_start !== null ? { storyStart: game.story_start } : {}),
            players: fresh!.players,
          };
      const tick = game.tick + (fresh ? 0 : 1);
      const chunk = (text: string) => this.live.chunk(game.id, tick, text);
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
      const outcome = await run(host, chunk, world);
      const runMs = Math.max(0, lap() - (clock.waitMs - waitedBeforeRun));
      const usage = provider.usage();
      const row: Turn = {
        game_id: game.id,
        seq: game.seq,
        parent: outcome.parent !== undefined ? outcome.parent : (game.head ?? null),
        kind: outcome.kind,
        tick: host.session.tick,
        state: rowSave(host),
        inputs: JSON.stringify(outcome.inputs),
        cassette: `[${entries.join(",")}]`,
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
      const committed = await store.commitStep(
        row,
        owner,
        logs,
        outcome.events,
        outcome.status ? { status: outcome.status } : {},
        outcome.answer,
      );
      this.stopBeat(owner);
      if (!committed) throw new ApiError("game/busy", "taken-over", {}, { game: game.id });
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
          // From taking the slot to the step's start: the claim (and, for a turn, the look that counts).
          claimMs: Math.round((started - clock.slotAt) * 10) / 10,
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
      await this.release(game.id, owner).catch(() => {});
      const failure = asApiError(error);
      // A story control that failed (a retry's narrator) changed nothing and is the host's to try again:
      // its error answers the host's request; no turn became due, so none is scheduled or announced.
      if (this.controls.has(owner)) throw failure;
      // Players are told one plain sentence and when it runs again; the host's drawer gets the cause.
      const tick = game.tick + (fresh ? 0 : 1);
      const notice =
        failure.code !== "turn/failed"
          ? undefined
          : fresh
            ? (() => {
                const reason = failureReason(failure);
                return {
                  tick,
                  reason,
                  message: `${reason} The host can start the game again.`,
                  retryAt: null,
                  attempt: 1,
                };
              })()
            : this.failures.failed(game.id, tick, failure);
      // A failed turn stays due (every player submitted): the sweep runs it again at retry_at, on any
      // process; after the last of its waits (notice.retryAt null) only a Retry or a forced turn runs it.
      // Not a step another took over, nor a store out of reach (due at once when it is back).
      if (!fresh && failure.code !== "game/busy" && failure.code !== "server/unavailable") {
        const at = notice
          ? (notice.retryAt ?? WAITS_FOR_RETRY)
          : Date.now() + (this.options.retryDelayMs ?? retryDelayMs)(failure, game);
        await store.retryAt(game.id, game.seq, at).catch(() => {});
      }
      if (notice) {
        await store
          .addEvents(game.id, [
            gameEvents.turnFailed(notice),
            gameEvents.turnFailure({
              tick,
              cause: failure.message,
              code: failure.code,
              details: failure.details,
            }),
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
      this.live.end(game.id);
      await provider?.close().catch(() => {});
    }
  }

  /**
   * The provider with its calls made outside this step's slot: while a remote model answers, another
   * step runs. The step takes a slot again (waiting its turn) before it goes on.
   */
  private yielding(inner: Provider, clock: StepClock): Provider {
    const outside = async <T>(call: () => Promise<T>): Promise<T> => {
      this.slots.give(clock.key);
      try {
        return await call();
      } finally {
        clock.waitMs += await this.slots.take(clock.key);
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

  /**
   * Stops taking new steps, hands back the turns waiting for a slot (they hold no claim: their games
   * stay due in the store, for any process's sweep), and waits (at most `ms`) for the steps running.
   * Those still running then are handed back too: their claims are released, so another process
   * takes them at once (their commits are refused: nothing is applied twice).
   */
  async drain(ms: number): Promise<boolean> {
    this.stopping = true;
    this.slots.handBack(new ApiError("server/unavailable", "shutting-down"));
    const all = Promise.allSettled([...this.running]).then(() => true);
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
    const drained = await Promise.race([all, timeout]);
    await Promise.allSettled([...this.held].map(([owner, hold]) => this.release(hold.game, owner)));
    return drained;
  }
}

/** Whether a phase's scripts ran out of their time budget (the budget, or one script's time). */
function scriptsOverBudget(phase: TurnResult["trace"]["phases"][number]): boolean {
  return (
    phase.scripts.budgetExhausted ||
    phase.triggers.some((t) => t.script?.status === "timeout" || t.script?.status === "budget")
  );
}

function logEvent(logs: LogEntry[], tick: number): NewEvent[] {
  return logs.length > 0 ? [gameEvents.log({ tick, entries: logs })] : [];
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
  if (isHostError(error))
    return new ApiError("engine/refused", "engine-refused", { reason: error.message }, { host: error.code });
  if (isAiError(error))
    return new ApiError("turn/failed", "narrator-failed", { kind: error.kind }, { ai: error.kind });
  if (isStoreUnavailable(error)) return new ApiError("server/unavailable", "store-unreachable");
  return new ApiError("server/internal", "unexpected");
}

/**
 * A step's row: the state with the step and the one before it from the history (a retry runs the
 * head's turn again from its parent). The store's rows are the rest of the game's history: the
 * whole tree in every row would grow with each turn and be stored once per turn.
 */
export function rowSave(host: HostGame): string {
  // The head and its parent only (the store keeps the tree): a retry or an alteration of the next
  // step plays from that parent. A retry's old draw goes first, or the pruning would drop the parent.
  const history = host.history;
  const head = history.nodes.get(history.head);
  const parent = head?.parent == null ? undefined : history.nodes.get(head.parent);
  if (head && parent && parent.children.length > 1) {
    const keep = new Set([head.id, ...pathTo(history, parent.id).map((n) => n.id)]);
    for (const id of [...history.nodes.keys()]) if (!keep.has(id)) history.nodes.delete(id);
    for (const node of history.nodes.values()) node.children = node.children.filter((c) => keep.has(c));
  }
  pruneHistory(history, 2);
  return host.save();
}
