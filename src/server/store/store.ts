import {
  type Compilable,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  sql,
  type Transaction,
} from "kysely";
import { gameEvents, type NewEvent } from "../events.ts";
import { nameSkeleton } from "../names.ts";
import type { Bus } from "./bus.ts";
import { compiledOnce } from "./compiled.ts";
import { HeadStates } from "./heads.ts";
import { type OpenStore, PRESENCE_PREFIX } from "./open.ts";
import { packedColumn, packTurn } from "./packed.ts";
import type { DirectQuery } from "./prepared.ts";
import type {
  Database,
  EventsTable,
  GamesTable,
  LogEntriesTable,
  PlayersTable,
  QuestAnswersTable,
  SubmissionsTable,
  TurnsTable,
  WorldsTable,
} from "./schema.ts";
import { unanswered } from "./sqlite-thread.ts";
import {
  addSubmissionStatement,
  CALLER_BY_TOKEN,
  CLAIM_TURN,
  commitStepStatement,
  GAME_FOR_TURN,
  numberedAtOnce,
  numberedEvents,
} from "./statements.ts";

/**
 * A game's row; `retry_at`, `creator`, `budget_strikes`, `head` and the controls and vote columns may be
 * left out of a new one (null, null, 0, null, null: the default controls, no vote).
 */
export type Game = Omit<
  Selectable<GamesTable>,
  "retry_at" | "creator" | "budget_strikes" | "head" | VoteColumns
> & {
  head?: number | null;
  controls?: string | null;
  vote?: string | null;
  vote_id?: string | null;
  vote_seq?: number | null;
  vote_closes_at?: number | null;
  retry_at?: number | null;
  creator?: string | null;
  budget_strikes?: number;
};
type VoteColumns = "controls" | "vote" | "vote_id" | "vote_seq" | "vote_closes_at";
export type Player = Selectable<PlayersTable>;
export type Submission = Selectable<SubmissionsTable>;
export type Turn = Selectable<TurnsTable>;
export type World = Selectable<WorldsTable>;
export type StoredEvent = Selectable<EventsTable>;
export type LogRow = Selectable<LogEntriesTable>;
export type QuestAnswerRow = Selectable<QuestAnswersTable>;
/** What a turn runs on: the game's active players (in join order) and their submissions (in the order they came). */
export interface TurnInputs {
  players: Pick<Player, "id" | "name">[];
  submitted: Pick<Submission, "player_id" | "text">[];
}
/** The state a game is at: its head's row, without its cassette, trace and the rest. */
export type LastTurn = Pick<Turn, "seq" | "tick" | "state" | "parent" | "kind">;

/**
 * The start of a claim's owner (`lease_owner`) when the step is a quest answer. An answer's step
 * reads no submission and leaves the tick as it is, so a submission for the next turn is stored
 * while it holds the game (`addSubmission`); only a turn's claim refuses them. The kind is part of
 * the owner, so a claim taken over (an expired one) never keeps the kind of the claim before it.
 */
export const ANSWER_CLAIM = "answer:";

/** How much state text (characters) the SQLite store keeps of the steps it committed (heads.ts): some 70 games' at the example world. */
const HEAD_STATES_CHARS = 2_000_000;

/** Where an event stands in its game's stream: `seq`, and `sub` for one audience's events after it. */
export interface EventId {
  seq: number;
  sub: number;
}

/** An event's id on the stream: `12` for everyone's twelfth event, `12.1` for the first host event after it. */
export function eventIdText(event: EventId): string {
  return event.sub === 0 ? String(event.seq) : `${event.seq}.${event.sub}`;
}

/** A Last-Event-ID read back (`12`, `12.1`); undefined when it is not one. */
export function parseEventId(text: string | undefined): EventId | undefined {
  const match = text === undefined ? null : /^(\d{1,15})(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!match) return undefined;
  return { seq: Number(match[1]), sub: Number(match[2] ?? 0) };
}

export type { NewEvent } from "../events.ts";

/** One step of a game's story as the store gives it: its inputs and result read from their JSON. */
export interface TranscriptEntry {
  seq: number;
  kind: Turn["kind"];
  tick: number;
  inputs: Record<string, unknown>;
  /** As the step stored it: a route projects it for players (views.ts `storedPlayerResult`). */
  result: Record<string, unknown>;
  narration: string;
  at: number;
}

/** The queries the server makes, over either dialect. Every multi-row write is one transaction. */
export class Store {
  readonly db: Kysely<Database>;
  readonly bus: Bus;
  /** The reads every turn makes, compiled once (compiled.ts). */
  readonly #hot: ReturnType<typeof hotQueries>;
  /** Whether turn rows' large texts are deflated here (SQLite; PostgreSQL compresses them itself): packed.ts. */
  private readonly packs: boolean;
  /** SQLite: the states this process last committed, not read back at the next restore (heads.ts). */
  readonly #heads: HeadStates | undefined;
  constructor(readonly open: OpenStore) {
    this.db = open.db;
    this.bus = open.bus;
    this.packs = open.dialect === "sqlite";
    this.#hot = hotQueries(this.db, this.packs, open.direct);
    if (this.packs) this.#heads = new HeadStates(HEAD_STATES_CHARS);
  }

  // Worlds

  async putWorld(row: Omit<World, "uploader"> & { uploader?: string }): Promise<boolean> {
    const result = await this.db
      .insertInto("worlds")
      .values(row)
      .onConflict((oc) => oc.column("hash").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** How many worlds `uploader` stored, and how many bytes of worlds every uploader but the operator did. */
  async worldQuotas(uploader: string): Promise<{ mine: number; bytes: number }> {
    const mine = await this.db
      .selectFrom("worlds")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("uploader", "=", uploader)
      .executeTakeFirst();
    const all = await this.db
      .selectFrom("worlds")
      .select((eb) => eb.fn.sum("bytes").as("bytes"))
      .where((eb) => eb.or([eb("uploader", "is", null), eb("uploader", "not in", ["operator", "bundled"])]))
      .executeTakeFirst();
    return { mine: Number(mine?.n ?? 0), bytes: Number(all?.bytes ?? 0) };
  }

  world(hash: string): Promise<World | undefined> {
    return this.db.selectFrom("worlds").selectAll().where("hash", "=", hash).executeTakeFirst();
  }

  worlds(limit: number) {
    return this.db
      .selectFrom("worlds")
      .select(["hash", "name", "bytes", "created_at"])
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
  }

  // Games and players

  async createGame(row: Omit<Game, "event_seq">): Promise<void> {
    await this.db.insertInto("games").values(row).execute();
  }

  async game(id: string): Promise<Game | undefined> {
    return (await this.#hot.game(id))[0];
  }

  gameByInvite(code: string): Promise<Game | undefined> {
    return this.db.selectFrom("games").selectAll().where("invite_code", "=", code).executeTakeFirst();
  }

  gameByHostToken(hash: string): Promise<Game | undefined> {
    return this.db.selectFrom("games").selectAll().where("host_token_hash", "=", hash).executeTakeFirst();
  }

  async playerByToken(hash: string): Promise<Player | undefined> {
    return (await this.#hot.playerByToken(hash))[0];
  }

  /**
   * The player a token's hash was issued to, with their game: the route's auth. One query on
   * PostgreSQL (statements.ts CALLER_BY_TOKEN), else the player, then the game.
   */
  async callerByToken(hash: string): Promise<{ player: Player; game: Game } | undefined> {
    const direct = this.open.direct;
    if (direct === undefined) {
      const player = await this.playerByToken(hash);
      const game = player ? await this.game(player.game_id) : undefined;
      return player && game ? { player, game } : undefined;
    }
    const row = (await direct(CALLER_BY_TOKEN, [hash]))[0];
    if (row === undefined) return undefined;
    const game: Record<string, unknown> = {};
    const player: Record<string, unknown> = {};
    for (const key in row)
      if (key.startsWith("tf.")) player[key.slice(3)] = row[key];
      else game[key] = row[key];
    return { player: player as unknown as Player, game: game as unknown as Game };
  }

  players(game: string): Promise<Player[]> {
    return this.db
      .selectFrom("players")
      .selectAll()
      .where("game_id", "=", game)
      .orderBy("joined_at")
      .orderBy("id")
      .execute();
  }

  /** Adds a player and their join event in one transaction. */
  async addPlayer(row: Omit<Player, "name_key">, event: NewEvent): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The name's skeleton is unique per game: of two joins with look-alike names at once, one fails.
      await trx
        .insertInto("players")
        .values({ ...row, name_key: nameSkeleton(row.name) })
        .execute();
      await this.#insertEvents(trx, row.game_id, [event]);
    });
    await this.wake(row.game_id);
  }

  /** Stores a player's answer to a quest (replacing their earlier one), with its event, in one transaction. */
  async setQuestAnswer(row: QuestAnswerRow, event: NewEvent): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await upsertQuestAnswer(trx, row);
      await this.#insertEvents(trx, row.game_id, [event]);
    });
    await this.wake(row.game_id);
  }

  questAnswers(game: string, quest: string): Promise<QuestAnswerRow[]> {
    return this.db
      .selectFrom("quest_answers")
      .selectAll()
      .where("game_id", "=", game)
      .where("quest", "=", quest)
      .execute();
  }

  /** Changes a game's status (and optionally a player's), with its event, when the status is still `from`. */
  async setStatus(
    game: string,
    from: readonly Game["status"][],
    to: Game["status"],
    event: NewEvent,
    extra: Partial<Pick<Game, "turn_opened_at">> = {},
  ): Promise<boolean> {
    const changed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("games")
        .set({ status: to, updated_at: Date.now(), ...extra })
        .where("id", "=", game)
        .where("status", "in", from)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    if (changed) await this.wake(game);
    return changed;
  }

  async kick(game: string, player: string, event: NewEvent): Promise<boolean> {
    const changed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("players")
        .set({ status: "kicked" })
        .where("id", "=", player)
        .where("game_id", "=", game)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    if (changed) await this.wake(game);
    return changed;
  }

  /**
   * Counts a turn of the game whose scripts ran out of their budget (`over`), or ends the run of them;
   * answers the turns in a row now. In the store, so that every process slows (and pauses) the game
   * alike, and a restart does not forgive it.
   */
  async countBudgetStrike(game: string, over: boolean): Promise<number> {
    if (!over) {
      await this.setBudgetStrikes(game, 0);
      return 0;
    }
    const row = await this.db
      .updateTable("games")
      .set((eb) => ({ budget_strikes: eb("budget_strikes", "+", 1) }))
      .where("id", "=", game)
      .returning("budget_strikes")
      .executeTakeFirst();
    return Number(row?.budget_strikes ?? 0);
  }

  /** Sets the game's count of turns in a row over their scripts' budget (a pause starts it again). */
  async setBudgetStrikes(game: string, strikes: number): Promise<void> {
    await this.db
      .updateTable("games")
      .set({ budget_strikes: strikes })
      .where("id", "=", game)
      .where("budget_strikes", "<>", strikes)
      .execute();
  }

  /**
   * The game's host token hash changed from `from` (an exact hash, or one starting with `prefix`)
   * to `to`, with its event, in one transaction; false when the game's host is not `from` (any more).
   */
  async swapHost(
    game: string,
    from: { hash: string } | { prefix: string },
    to: string,
    event: NewEvent,
  ): Promise<boolean> {
    const changed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("games")
        .set({ host_token_hash: to })
        .where("id", "=", game)
        .where(
          "host_token_hash",
          "hash" in from ? "=" : "like",
          "hash" in from ? from.hash : `${from.prefix}%`,
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    if (changed) await this.wake(game);
    return changed;
  }

  /**
   * A player's seat moved from one status to another with a new token hash, and its event, in one
   * transaction (free a seat: active to open; take it: open to active). The player's id, or null
   * when no player of that id (or name) had the `from` status.
   */
  async moveSeat(
    game: string,
    who: { id: string } | { name: string },
    from: "active" | "open",
    to: { status: "active" | "open"; tokenHash: string },
    event: (player: { id: string; name: string }) => NewEvent,
  ): Promise<{ id: string; name: string } | null> {
    const moved = await this.db.transaction().execute(async (trx) => {
      const seat = await trx
        .selectFrom("players")
        .select(["id", "name"])
        .where("game_id", "=", game)
        .where("id" in who ? "id" : "name", "=", "id" in who ? who.id : who.name)
        .where("status", "=", from)
        .executeTakeFirst();
      if (!seat) return null;
      const result = await trx
        .updateTable("players")
        .set({ status: to.status, token_hash: to.tokenHash })
        .where("id", "=", seat.id)
        .where("status", "=", from)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      await this.#insertEvents(trx, game, [event(seat)]);
      return seat;
    });
    if (moved) await this.wake(game);
    return moved;
  }

  /** The host asks for the turn now: due at once, also after a failed step (retry_at cleared). */
  async forceTick(game: string, tick: number): Promise<void> {
    await this.db
      .updateTable("games")
      .set({ forced_tick: tick, retry_at: null })
      .where("id", "=", game)
      .execute();
  }

  /** An imported game starts running at the save's state (row 0). */
  async importGame(game: Omit<Game, "event_seq">, turn: Turn): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("games")
        .values({ ...game, seq: 1, head: turn.seq })
        .execute();
      await trx.insertInto("turns").values(packTurn(turn, this.packs)).execute();
      await this.#insertEvents(trx, game.id, [gameEvents.gameImported({ tick: turn.tick })]);
    });
  }

  // Submissions

  submissions(game: string, tick: number): Promise<Submission[]> {
    return this.db
      .selectFrom("submissions")
      .selectAll()
      .where("game_id", "=", game)
      .where("tick", "=", tick)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /**
   * What a turn needs to know, in one query: the game's active players (in join order) and the
   * submissions of those players for `tick` (in the order they came, as `submissions` gives them).
   */
  async turnInputs(game: string, tick: number): Promise<TurnInputs> {
    return inputsOf(await this.#hot.turnInputs(game, tick));
  }

  /**
   * The game and, when it is running, the inputs of its next turn (turnInputs at its tick + 1): the
   * runner's look at whether a turn is due. One query on PostgreSQL (statements.ts GAME_FOR_TURN).
   */
  async gameForTurn(id: string): Promise<{ game: Game | undefined; inputs?: TurnInputs }> {
    const direct = this.open.direct;
    if (direct === undefined && this.open.reads !== undefined) {
      // SQLite: both reads in one message to its thread (the inputs at the tick after the game's row's).
      const [games, inputs] = await this.open.reads(this.#hot.game.statement(id), [
        this.#hot.nextTurnInputs.statement(id),
      ]);
      const game = games?.[0] as Game | undefined;
      if (game?.status !== "running") return { game };
      return { game, inputs: inputsOf((inputs ?? []) as TurnInputRow[]) };
    }
    if (direct === undefined) {
      const game = await this.game(id);
      if (game?.status !== "running") return { game };
      return { game, inputs: await this.turnInputs(id, game.tick + 1) };
    }
    const rows = await direct(GAME_FOR_TURN, [id]);
    const first = rows[0];
    if (first === undefined) return { game: undefined };
    const game: Record<string, unknown> = {};
    for (const key in first) if (!key.startsWith("tf.")) game[key] = first[key];
    const inputs = inputsOf(
      rows
        .filter((r) => r["tf.player_id"] !== null)
        .map((r) => ({
          player_id: r["tf.player_id"] as string,
          name: r["tf.name"] as string,
          joined_at: r["tf.joined_at"] as number,
          submission_id: r["tf.submission_id"] as string | null,
          text: r["tf.text"] as string | null,
          created_at: r["tf.created_at"] as number | null,
        })),
    );
    const found = game as unknown as Game;
    return found.status === "running" ? { game: found, inputs } : { game: found };
  }

  /**
   * Claims the game for its turn at `tick` (as `lease` does, at the game's seq) and reads the turn's
   * inputs (turnInputs) after the claim holds, so that no submission for `tick` gets in after them.
   * On PostgreSQL the claim, the inputs and the state to start from (lastTurn) are one statement
   * (statements.ts CLAIM_TURN); `last` is then given, else the caller reads it. undefined: not claimed.
   */
  async claimTurn(
    game: Pick<Game, "id" | "seq">,
    owner: string,
    until: number,
    tick: number,
  ): Promise<{ inputs: TurnInputs; last?: LastTurn } | undefined> {
    const direct = this.open.direct;
    if (direct !== undefined) {
      const rows = await direct(CLAIM_TURN, [game.id, owner, until, game.seq, Date.now(), tick]);
      if (rows.length > 0) {
        const players: TurnInputRow[] = [];
        let last: LastTurn | undefined;
        for (const r of rows)
          if (r.r === "p") players.push(r as unknown as TurnInputRow);
          else if (r.r === "t")
            last = { seq: r.seq, tick: r.tick, state: r.state, parent: r.parent, kind: r.kind } as LastTurn;
        return { inputs: inputsOf(players), ...(last !== undefined ? { last } : {}) };
      }
      // Not taken: the claim is held, the game moved on, or its row changed since the statement's
      // snapshot (a submission came in): the claim and the read apart, as on SQLite.
    }
    const transaction = this.open.transaction;
    if (transaction !== undefined) {
      // SQLite: the claim (relaxed, as `lease`), the inputs and the state to start from in one message.
      const known = this.#heads?.known(game.id);
      const last =
        known === undefined
          ? this.#hot.lastTurn.statement(game.id)
          : this.#hot.lastTurnKnown.statement(game.id, known.seq);
      const { rows, more } = await transaction(
        this.#hot.claim.statement(game.id, game.seq, owner, until, Date.now()),
        [
          { ...this.#hot.turnInputs.statement(game.id, tick), rows: true },
          { ...last, rows: true },
        ],
        { relaxed: true },
      );
      if (rows.length === 0) return undefined;
      const inputs = inputsOf((more[0] ?? []) as TurnInputRow[]);
      const row = more[1]?.[0] as (Omit<LastTurn, "state"> & { state: string | null }) | undefined;
      if (row === undefined) return { inputs };
      return { inputs, last: row.state === null ? { ...row, state: known!.state } : (row as LastTurn) };
    }
    if (!(await this.lease(game.id, game.seq, owner, until))) return undefined;
    return { inputs: await this.turnInputs(game.id, tick) };
  }

  submissionByKey(game: string, player: string, key: string): Promise<Submission | undefined> {
    return this.db
      .selectFrom("submissions")
      .selectAll()
      .where("game_id", "=", game)
      .where("player_id", "=", player)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
  }

  /**
   * Stores a submission and its event (one transaction) before it is
   * acknowledged, only while the game is running at the tick before
   * `row.tick` and no turn holds it: a turn that claimed the game has read its
   * submissions, so a later one would be lost ("busy"). A quest answer's claim
   * (ANSWER_CLAIM) does not refuse it: that step reads no submission and keeps
   * the tick, so the turn after it reads this one. "duplicate": a row with the
   * same key or for the same turn exists.
   */
  async addSubmission(row: Submission, event: NewEvent): Promise<"ok" | "duplicate" | "busy"> {
    let stored: boolean;
    try {
      const direct = this.open.direct;
      // PostgreSQL: the same writes as one statement (statements.ts).
      if (direct !== undefined && numberedAtOnce([event])) {
        const numbered = numberedEvents([event]);
        // The wake carries the event: the game's event streams need not read it.
        const wake = this.bus.wakeNotice?.(row.game_id, false, numbered);
        const { text, values } = addSubmissionStatement(row, numbered, `${ANSWER_CLAIM}%`, Date.now(), wake);
        stored = (await direct(text, values)).length > 0;
        if (stored && wake !== undefined) return "ok";
      } else if (this.open.atomic !== undefined && numberedAtOnce([event]))
        // SQLite: the same writes as one message to its thread (SqliteThread.atomic).
        stored = (await this.open.atomic(...this.#submissionWrites(row, event))).length > 0;
      else
        stored = await this.db.transaction().execute(async (trx) => {
          const now = Date.now();
          // The update also locks the game's row (PostgreSQL), so a claim and a submission are ordered.
          // It numbers the event too (see insertEvents): one statement less.
          const free = await submissionCheck(
            trx,
            row.game_id,
            row.tick - 1,
            forAll([event]),
            now,
          ).executeTakeFirst();
          if (free === undefined) return false;
          await trx.insertInto("submissions").values(row).execute();
          await this.#insertEvents(trx, row.game_id, [event], Number(free.event_seq));
          return true;
        });
    } catch (error) {
      if (isUniqueViolation(error)) return "duplicate";
      throw error;
    }
    if (!stored) return "busy";
    await this.wake(row.game_id);
    return "ok";
  }

  /**
   * A submission's writes for SQLite's one-message transaction: the game's row checked (running, at the
   * turn before, not claimed by a step) and its event number taken, as the transaction below does; then
   * the submission and its event, numbered by the game's row as that update left it.
   */
  #submissionWrites(row: Submission, event: NewEvent): Parameters<NonNullable<OpenStore["atomic"]>> {
    const now = Date.now();
    // Compiled once (compiled.ts): Kysely built and compiled the three at every submission.
    const { submissionCheck: check, submission, submissionEvent } = this.#hot;
    const free = check.statement(row.game_id, row.tick - 1, now);
    const stored = submission.statement(
      row.id,
      row.game_id,
      row.player_id,
      row.tick,
      row.idempotency_key,
      row.text,
      row.created_at,
    );
    const numbered = submissionEvent.statement(
      row.game_id,
      event.audience,
      event.kind,
      JSON.stringify(event.data),
      now,
    );
    return [free, [stored, numbered]];
  }

  /**
   * A step's commit as SQLite's one-message transaction: the claim's check, the game's new seq and its
   * events' numbers (the update below), then the writes of commitStep's transaction in its order, the
   * events numbered by the game's row as that update left it (as a submission's are).
   */
  #commitWrites(
    turn: Turn,
    owner: string,
    logs: Omit<LogRow, "game_id" | "seq" | "n">[],
    events: NewEvent[],
    game: Partial<Pick<Game, "status">>,
    answer: QuestAnswerRow | undefined,
  ): Parameters<NonNullable<OpenStore["atomic"]>> {
    const now = Date.now();
    const count = forAll(events);
    // Compiled once (compiled.ts) in its usual shape: no new status, a turn row with a trace.
    const args = [
      turn.seq + 1,
      turn.seq,
      turn.tick,
      now,
      count,
      turn.game_id,
      owner,
      answerStep(turn),
    ] as const;
    const check =
      game.status === undefined
        ? this.#hot.commitCheck.statement(...args)
        : commitCheck(this.db, ...args, game).compile();
    const then: { sql: string; parameters: readonly unknown[] }[] = [];
    if (answer) then.push(questAnswerWrite(this.db, answer).compile());
    then.push(
      turn.trace !== null
        ? this.#hot.turnRow.statement(
            turn.game_id,
            turn.seq,
            turn.parent,
            turn.kind,
            turn.tick,
            turn.state,
            turn.inputs,
            turn.cassette,
            turn.trace,
            turn.result,
            turn.narration,
            turn.created_at,
          )
        : this.db.insertInto("turns").values(packTurn(turn, this.packs)).compile(),
    );
    if (turn.parent !== null)
      then.push(
        this.db
          .updateTable("branch_names")
          .set({ seq: turn.seq })
          .where("game_id", "=", turn.game_id)
          .where("seq", "=", turn.parent)
          .compile(),
      );
    if (logs.length > 0)
      then.push(
        this.db
          .insertInto("log_entries")
          .values(logs.map((l, n) => ({ ...l, game_id: turn.game_id, seq: turn.seq, n })))
          .compile(),
      );
    if (events.length > 0)
      // As insertEvents numbers them (the first event is for everyone: numberedAtOnce), each seq counted
      // back from the game's event_seq as the check's update left it.
      then.push(
        this.db
          .insertInto("events")
          .values(
            numberedEvents(events).map((e) => ({
              game_id: turn.game_id,
              seq: sql<number>`(select ${sql.ref("event_seq")} from ${sql.table("games")} where ${sql.ref("id")} = ${turn.game_id}) - ${count - e.o}`,
              sub: e.s,
              audience: e.audience,
              kind: e.kind,
              data: e.data,
              created_at: now,
            })),
          )
          .compile(),
      );
    return [check, then];
  }

  // Turns

  /** The state the game is at (a save: its head's), without the rest of its turn row (cassette, trace). */
  async lastTurn(game: string): Promise<LastTurn | undefined> {
    const known = this.#heads?.known(game);
    if (known === undefined) return (await this.#hot.lastTurn(game))[0];
    // Its state is left out of the answer when the head is the step remembered (SQLite's thread then
    // neither inflates it nor copies it here).
    const row = (await this.#hot.lastTurnKnown(game, known.seq))[0];
    if (row === undefined || row.state !== null) return row as LastTurn | undefined;
    return { ...row, state: known.state };
  }

  /** The shape of the game's tree: every step's seq, parent, kind and tick (an index-only read). */
  async tree(
    game: string,
  ): Promise<{ seq: number; parent: number | null; kind: Turn["kind"]; tick: number }[]> {
    const rows = await this.db
      .selectFrom("turns")
      .select(["seq", "parent", "kind", "tick"])
      .where("game_id", "=", game)
      .orderBy("seq")
      .execute();
    return rows.map((r) => ({
      seq: Number(r.seq),
      parent: r.parent === null ? null : Number(r.parent),
      kind: r.kind,
      tick: Number(r.tick),
    }));
  }

  /** The steps from the opening to the game's head (its current branch), oldest first. */
  async pathSteps(game: string) {
    const row = await this.db.selectFrom("games").select("head").where("id", "=", game).executeTakeFirst();
    if (row?.head == null) return [];
    const bySeq = new Map((await this.tree(game)).map((s) => [s.seq, s]));
    const path: { seq: number; parent: number | null; kind: Turn["kind"]; tick: number }[] = [];
    // A parent's seq is always below its children's: the walk ends, and the path is in seq order.
    for (let at = bySeq.get(Number(row.head)); at; at = at.parent === null ? undefined : bySeq.get(at.parent))
      path.unshift(at);
    return path;
  }

  /** The seqs of the steps from the opening to the game's head (its current branch), oldest first. */
  async path(game: string): Promise<number[]> {
    return (await this.pathSteps(game)).map((s) => s.seq);
  }

  /** The narration and time of the given steps. */
  narrations(game: string, seqs: number[]) {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom("turns")
      .select(["seq", "narration", "created_at"])
      .where("game_id", "=", game)
      .where("seq", "in", seqs)
      .execute();
  }

  /** The steps played from step `parent` (its children), with their inputs. */
  children(game: string, parent: number | null) {
    return this.db
      .selectFrom("turns")
      .select(["seq", "kind", "inputs"])
      .where("game_id", "=", game)
      .where("parent", parent === null ? "is" : "=", parent)
      .execute();
  }

  /** The seq of the last step on the game's branch that has a trace (an opening or a turn; a quest answer or an import has none). */
  async lastTracedSeq(game: string): Promise<number | undefined> {
    const path = await this.path(game);
    if (path.length === 0) return undefined;
    const row = await this.db
      .selectFrom("turns")
      .select("seq")
      .where("game_id", "=", game)
      .where("seq", "in", path)
      .where("trace", "is not", null)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.seq);
  }

  /** A step's state (its save) and tick, without the rest of its row (trace, cassette: most of its bytes). */
  async stepState(game: string, seq: number): Promise<Pick<Turn, "seq" | "tick" | "state"> | undefined> {
    return this.db
      .selectFrom("turns")
      .select(["seq", "tick", packedColumn("state", this.packs)])
      .where("game_id", "=", game)
      .where("seq", "=", seq)
      .executeTakeFirst();
  }

  async turn(game: string, seq: number): Promise<Turn | undefined> {
    return this.db
      .selectFrom("turns")
      .select([
        "game_id",
        "seq",
        "kind",
        "parent",
        "tick",
        packedColumn("state", this.packs),
        "inputs",
        packedColumn("cassette", this.packs),
        packedColumn("trace", this.packs),
        "result",
        "narration",
        "created_at",
      ])
      .where("game_id", "=", game)
      .where("seq", "=", seq)
      .executeTakeFirst();
  }

  /** The steps of the game's current branch (opening to head), oldest first, mapped here from their rows. */
  async transcript(game: string): Promise<TranscriptEntry[]> {
    const path = await this.path(game);
    if (path.length === 0) return [];
    const rows = await this.db
      .selectFrom("turns")
      .select(["seq", "kind", "tick", "inputs", "result", "narration", "created_at"])
      .where("game_id", "=", game)
      .where("seq", "in", path)
      .orderBy("seq")
      .execute();
    return rows.map((t) => ({
      seq: Number(t.seq),
      kind: t.kind,
      tick: Number(t.tick),
      inputs: JSON.parse(t.inputs) as Record<string, unknown>,
      result: JSON.parse(t.result) as Record<string, unknown>,
      narration: t.narration,
      at: Number(t.created_at),
    }));
  }

  /** Every step of the game on every branch, without states or traces (the branch list reads it). */
  steps(game: string) {
    return this.db
      .selectFrom("turns")
      .select(["seq", "parent", "kind", "tick", "inputs", "narration", "created_at"])
      .where("game_id", "=", game)
      .orderBy("seq")
      .execute();
  }

  /** The cassette entries of the given steps (by seq), in seq order. */
  async cassette(game: string, seqs: number[]) {
    if (seqs.length === 0) return [];
    return this.db
      .selectFrom("turns")
      .select(["seq", packedColumn("cassette", this.packs)])
      .where("game_id", "=", game)
      .where("seq", "in", seqs)
      .orderBy("seq")
      .execute();
  }

  /**
   * Claims a game for one step (a turn, an answer, the opening) until
   * `until`: only when its seq is still `seq` and no live claim holds it.
   * A claim whose deadline passed (its process died or stopped renewing it) is taken over.
   */
  async lease(game: string, seq: number, owner: string, until: number): Promise<boolean> {
    const now = Date.now();
    const result = await this.claimWrite((db) =>
      db
        .updateTable("games")
        .set({ lease_owner: owner, lease_until: until })
        .where("id", "=", game)
        .where("seq", "=", seq)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Extends a live claim of `owner` to `until` (the heartbeat of a running step). false: the claim
   * lapsed or was taken over; the step's commit will be refused.
   */
  async renew(game: string, owner: string, until: number): Promise<boolean> {
    const now = Date.now();
    const result = await this.claimWrite((db) =>
      db
        .updateTable("games")
        .set({ lease_until: until })
        .where("id", "=", game)
        .where("lease_owner", "=", owner)
        .where("lease_until", ">=", now)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A step of the game at `seq` failed: it is due again at `at` (not before), unless a commit or a
   * forced turn comes first.
   */
  async retryAt(game: string, seq: number, at: number): Promise<void> {
    await this.db
      .updateTable("games")
      .set({ retry_at: at })
      .where("id", "=", game)
      .where("seq", "=", seq)
      .execute();
  }

  async release(game: string, owner: string): Promise<void> {
    await this.claimWrite((db) =>
      db
        .updateTable("games")
        .set({ lease_owner: null, lease_until: null })
        .where("id", "=", game)
        .where("lease_owner", "=", owner)
        .execute(),
    );
  }

  /**
   * PostgreSQL: releases the live claims of processes that are gone: a claim ends with its process's
   * presence (OpenStore.presence, the name of the process's bus connection), and a process killed
   * (kill -9, a crash, its machine lost) drops that connection, which PostgreSQL then no longer
   * lists. Its games are free at once, not when their claims lapse (up to LEASE_MS later). A process
   * that lost only its connection (a network fault) still runs its step, but its commit is refused
   * (the claim is gone): nothing is applied twice. Claims without a presence (SQLite, a process that
   * cannot see its own, an older version) are left to lapse. This process's own claims are never
   * released here. Returns the games released.
   */
  async releaseAbsentClaims(now: number): Promise<string[]> {
    const presence = this.open.presence;
    if (presence === undefined) return [];
    const rows = await this.db
      .updateTable("games")
      .set({ lease_owner: null, lease_until: null })
      .where("lease_until", ">=", now)
      .where("lease_owner", "like", `%@${PRESENCE_PREFIX}%`)
      .where("lease_owner", "not like", `%@${presence}`)
      .where(
        sql<boolean>`not exists (select 1 from pg_catalog.pg_stat_activity a where a.datname = current_database()
          and a.application_name = substring(games.lease_owner from ${`@(${PRESENCE_PREFIX}[0-9a-f]+)$`}))`,
      )
      .returning("id")
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * A write of a claim (lease, release). On SQLite it is committed without waiting for the disk
   * (synchronous = NORMAL for this one statement; every other write waits, synchronous = FULL):
   * a claim lost in a power cut is a claim of a process that died with it, and the next FULL commit
   * makes it durable with everything before it (one write-ahead log, written in order). That saves
   * one fsync per turn. PostgreSQL: an ordinary write.
   */
  private claimWrite<T>(write: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return write(this.open.relaxed ?? this.db);
  }

  /**
   * Commits one step: the new state row, its log entries, its events and the
   * game's new seq and tick, in one transaction, and only while `owner` still
   * holds the lease on seq `turn.seq` (a claim that expired and was taken
   * over commits nothing). Returns whether it committed.
   */
  async commitStep(
    turn: Turn,
    owner: string,
    logs: Omit<LogRow, "game_id" | "seq" | "n">[],
    events: NewEvent[],
    game: Partial<Pick<Game, "status">> = {},
    answer?: QuestAnswerRow,
  ): Promise<boolean> {
    const direct = this.open.direct;
    // PostgreSQL: the same writes as one statement (statements.ts).
    if (direct !== undefined && numberedAtOnce(events)) {
      // The wake goes in the statement (delivered at its commit) when what was published for the game
      // before it (the narration's chunks) is sent: no NOTIFY round trip of its own.
      // The wake carries the step's events: the game's event streams need not read them.
      const numbered = numberedEvents(events);
      const wake = this.bus.wakeNotice?.(turn.game_id, true, numbered);
      const { text, values } = commitStepStatement(
        turn,
        owner,
        logs,
        numbered,
        game.status,
        answer,
        Date.now(),
        wake,
      );
      const row = (await direct(text, values))[0];
      // Else not awaited: the wake goes out in order after what was published before it (the
      // narration's chunks), and the step need not hold its slot for the NOTIFY's round trip. The bus
      // sends what it holds before it closes. It carries the events too, numbered by the commit.
      if (row !== undefined && wake === undefined && numbered.length > 0)
        void this.bus
          .publish({ game: turn.game_id, kind: "events", last: Number(row.event_seq), events: numbered })
          .catch(() => {});
      else if (row !== undefined && wake === undefined) void this.wake(turn.game_id);
      return row !== undefined;
    }
    if (this.open.atomic !== undefined && numberedAtOnce(events)) {
      // SQLite: the same writes as one message to its thread (SqliteThread.atomic), run between
      // other sessions' transactions, never queued behind the submissions' writes.
      const committed =
        (await this.open.atomic(...this.#commitWrites(turn, owner, logs, events, game, answer))).length > 0;
      if (committed) {
        this.#heads?.remember(turn.game_id, turn.seq, turn.state);
        await this.wake(turn.game_id);
      }
      return committed;
    }
    // On SQLite, ahead of the submissions waiting for the writing connection (see OpenStore.steps).
    const committed = await (this.open.steps ?? this.db).transaction().execute(async (trx) => {
      const now = Date.now();
      // The claim's check, the game's new seq and its events' numbers (see insertEvents) in one statement.
      const result = await commitCheck(
        trx,
        turn.seq + 1,
        turn.seq,
        turn.tick,
        now,
        forAll(events),
        turn.game_id,
        owner,
        answerStep(turn),
        game,
      ).executeTakeFirst();
      if (result === undefined) return false;
      if (answer) await upsertQuestAnswer(trx, answer);
      await trx.insertInto("turns").values(packTurn(turn, this.packs)).execute();
      // A branch's name stays with the branch as it grows: from the step played from to the new one.
      // Its answer unread: on SQLite it goes with the commit (sqlite-thread.ts `unanswered`).
      if (turn.parent !== null)
        await trx
          .withPlugin(unanswered)
          .updateTable("branch_names")
          .set({ seq: turn.seq })
          .where("game_id", "=", turn.game_id)
          .where("seq", "=", turn.parent)
          .execute();
      if (logs.length > 0)
        await trx
          .insertInto("log_entries")
          .values(logs.map((l, n) => ({ ...l, game_id: turn.game_id, seq: turn.seq, n })))
          .execute();
      await this.#insertEvents(trx, turn.game_id, events, Number(result.event_seq));
      return true;
    });
    if (committed) {
      this.#heads?.remember(turn.game_id, turn.seq, turn.state);
      await this.wake(turn.game_id);
    }
    return committed;
  }

  /**
   * A story control moves the game's head to the stored step `head` (undo, rewind, a branch switch)
   * on the claim `owner` took at `seq`, with its events, in one transaction: the seq moves on (a claim
   * taken before it fails, so the control applies once), the claim ends, and the submissions and quest
   * answers for the turns after the head's tick are dropped (they belonged to the branch left; its
   * steps keep the actions they ran). false: the claim lapsed or was taken over; nothing changed.
   */
  async moveHead(
    game: string,
    seq: number,
    owner: string,
    head: { seq: number; tick: number },
    events: NewEvent[],
  ): Promise<boolean> {
    const moved = await (this.open.steps ?? this.db).transaction().execute(async (trx) => {
      const now = Date.now();
      const result = await trx
        .updateTable("games")
        .set({
          seq: seq + 1,
          head: head.seq,
          tick: head.tick,
          ...turnOpened(now),
        })
        .where("id", "=", game)
        .where("seq", "=", seq)
        .where("lease_owner", "=", owner)
        .where("lease_until", ">=", now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom("submissions").where("game_id", "=", game).where("tick", ">", head.tick).execute();
      await trx
        .deleteFrom("quest_answers")
        .where("game_id", "=", game)
        .where("tick", ">", head.tick)
        .execute();
      await this.#insertEvents(trx, game, events);
      return true;
    });
    if (moved) await this.wake(game);
    return moved;
  }

  // Story controls' rules and party votes (votes.ts)

  /** The game's controls (JSON) with their event, in one transaction. */
  async setControls(game: string, controls: string, event: NewEvent): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("games").set({ controls }).where("id", "=", game).execute();
      await this.#insertEvents(trx, game, [event]);
    });
    await this.wake(game);
  }

  /**
   * Opens a vote with its event, only while none is open and the game is still at `seq` (the state
   * the vote is about): false otherwise, nothing changed.
   */
  async openVote(
    game: string,
    seq: number,
    vote: { id: string; json: string; closesAt: number },
    event: NewEvent,
  ): Promise<boolean> {
    const opened = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("games")
        .set({ vote: vote.json, vote_id: vote.id, vote_seq: seq, vote_closes_at: vote.closesAt })
        .where("id", "=", game)
        .where("seq", "=", seq)
        .where("vote_id", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    if (opened) await this.wake(game);
    return opened;
  }

  /**
   * Changes the open vote `id` from the text `from` (as read) to `to`, with its events, in one
   * transaction: a ballot (the vote stays open) or its close (`close`: no vote open any more). A ballot
   * is refused when the vote changed since it was read (another ballot: read it again); a close only
   * when the vote is no longer open (so each vote closes once, by whichever process comes first).
   */
  async changeVote(
    game: string,
    id: string,
    from: string,
    to: string,
    close: boolean,
    events: NewEvent[],
  ): Promise<boolean> {
    const changed = await this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable("games")
        .set(close ? { vote: to, vote_id: null, vote_seq: null, vote_closes_at: null } : { vote: to })
        .where("id", "=", game)
        .where("vote_id", "=", id);
      if (!close) update = update.where("vote", "=", from);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.#insertEvents(trx, game, events);
      return true;
    });
    if (changed) await this.wake(game);
    return changed;
  }

  /** Games whose open vote is due to close: its time is up, or the game moved on since it opened. */
  votesDue(now: number, limit: number): Promise<{ id: string }[]> {
    return this.db
      .selectFrom("games")
      .select("id")
      .where("vote_id", "is not", null)
      .where((eb) => eb.or([eb("vote_closes_at", "<=", now), eb("vote_seq", "<>", eb.ref("seq"))]))
      .limit(limit)
      .execute();
  }

  // Branches (issue 33)

  /** The game's branch names, by the step they are kept with. */
  async branchNames(game: string): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom("branch_names")
      .select(["seq", "name"])
      .where("game_id", "=", game)
      .execute();
    return new Map(rows.map((r) => [Number(r.seq), r.name]));
  }

  /**
   * Names the branch that ends at step `seq` (null: removes its name), with its event, in one
   * transaction, only while `owner` holds the game's claim. A name kept with any other step
   * (`name_key`) is dropped: the caller checked it names no listed branch. false: the claim lapsed.
   */
  async nameBranch(
    game: string,
    owner: string,
    seq: number,
    name: { name: string; key: string } | null,
    event: NewEvent,
  ): Promise<boolean> {
    const named = await (this.open.steps ?? this.db).transaction().execute(async (trx) => {
      if (!(await holdsClaim(trx, game, owner))) return false;
      await trx
        .deleteFrom("branch_names")
        .where("game_id", "=", game)
        .where((eb) =>
          name === null ? eb("seq", "=", seq) : eb.or([eb("seq", "=", seq), eb("name_key", "=", name.key)]),
        )
        .execute();
      if (name !== null)
        await trx
          .insertInto("branch_names")
          .values({ game_id: game, seq, name: name.name, name_key: name.key, created_at: Date.now() })
          .execute();
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    if (named) await this.wake(game);
    return named;
  }

  /**
   * Deletes the steps `seqs` (a branch's own steps), their log entries and names, with the event, in
   * one transaction, only while `owner` holds the game's claim. false: the claim lapsed.
   */
  async deleteSteps(game: string, owner: string, seqs: number[], event: NewEvent): Promise<boolean> {
    const deleted = await (this.open.steps ?? this.db).transaction().execute(async (trx) => {
      if (!(await holdsClaim(trx, game, owner))) return false;
      // In slices: a query's parameters are bounded (SQLite's and PostgreSQL's limits).
      for (let i = 0; i < seqs.length; i += 500) {
        const slice = seqs.slice(i, i + 500);
        await trx.deleteFrom("log_entries").where("game_id", "=", game).where("seq", "in", slice).execute();
        await trx.deleteFrom("branch_names").where("game_id", "=", game).where("seq", "in", slice).execute();
        await trx.deleteFrom("turns").where("game_id", "=", game).where("seq", "in", slice).execute();
      }
      await this.#insertEvents(trx, game, [event]);
      return true;
    });
    this.#heads?.forget(game);
    if (deleted) await this.wake(game);
    return deleted;
  }

  async addEvents(game: string, events: NewEvent[]): Promise<void> {
    await this.db.transaction().execute((trx) => this.#insertEvents(trx, game, events));
    await this.wake(game);
  }

  /** The position of the game's newest event (none yet: 0). */
  async newestEventId(game: string): Promise<EventId> {
    const row = await this.db
      .selectFrom("events")
      .select(["seq", "sub"])
      .where("game_id", "=", game)
      .orderBy("seq", "desc")
      .orderBy("sub", "desc")
      .limit(1)
      .executeTakeFirst();
    return { seq: Number(row?.seq ?? 0), sub: Number(row?.sub ?? 0) };
  }

  /** The game's events after `after`, in order. */
  events(game: string, after: EventId, limit: number): Promise<StoredEvent[]> {
    return this.#hot.events(game, after.seq, after.sub, limit);
  }

  log(game: string, filter: { tick?: number; type?: string; trigger?: string }, limit: number, offset = 0) {
    let query = this.db.selectFrom("log_entries").selectAll().where("game_id", "=", game);
    if (filter.tick !== undefined) query = query.where("tick", "=", filter.tick);
    if (filter.type !== undefined) query = query.where("type", "=", filter.type);
    if (filter.trigger !== undefined) query = query.where("trigger", "=", filter.trigger);
    return query.orderBy("seq").orderBy("n").limit(limit).offset(offset).execute();
  }

  /**
   * Running games whose next turn is due and that nobody holds (no claim, or one that lapsed): every
   * active player submitted, or the host forced the turn, or its timeout passed with an action
   * submitted; and no failed step waits for its `retry_at`. Longest waiting first (a submission sets
   * `updated_at`). This is the sweep's whole notion of due: nothing due lives only in a process's memory.
   */
  async dueGames(now: number, limit: number): Promise<Game[]> {
    return this.db
      .selectFrom("games as g")
      .selectAll("g")
      .where("g.status", "=", "running")
      .where((eb) => eb.or([eb("g.lease_until", "is", null), eb("g.lease_until", "<", now)]))
      .where((eb) => eb.or([eb("g.retry_at", "is", null), eb("g.retry_at", "<=", now)]))
      .where((eb) => {
        const active = () =>
          eb
            .selectFrom("players as p")
            .select("p.id")
            .whereRef("p.game_id", "=", "g.id")
            .where("p.status", "=", "active");
        // A submission of the active player `p` for the game's next tick.
        const submitted = (
          inner: ExpressionBuilder<Database & { g: GamesTable; p: PlayersTable }, "g" | "p">,
        ) =>
          inner.exists(
            inner
              .selectFrom("submissions as s")
              .select("s.id")
              .whereRef("s.game_id", "=", "g.id")
              .whereRef("s.player_id", "=", "p.id")
              .where("s.tick", "=", inner("g.tick", "+", 1)),
          );
        const anySubmitted = eb.exists(active().where((inner) => submitted(inner)));
        return eb.and([
          anySubmitted,
          eb.or([
            eb("g.forced_tick", "=", eb("g.tick", "+", 1)),
            eb.and([
              eb("g.turn_timeout_ms", "is not", null),
              eb("g.turn_opened_at", "is not", null),
              eb(eb("g.turn_opened_at", "+", eb.ref("g.turn_timeout_ms")), "<=", now),
            ]),
            eb.not(eb.exists(active().where((inner) => inner.not(submitted(inner))))),
          ]),
        ]);
      })
      .orderBy("g.updated_at")
      .limit(limit)
      .execute();
  }

  async ping(): Promise<void> {
    await this.db.selectFrom("games").select("id").limit(1).execute();
  }

  /** insertEvents with this store's bus (its wake for events numbered after others: see there). */
  #insertEvents(trx: Transaction<Database>, game: string, events: NewEvent[], numbered?: number) {
    return insertEvents(trx, game, events, numbered, this.bus);
  }

  private async wake(game: string): Promise<void> {
    await this.bus.publish({ game, kind: "events" }).catch(() => {});
  }
}

/** The reads every turn makes (the auth's, the step's, the event streams'), compiled once (compiled.ts). */
function hotQueries(db: Kysely<Database>, packs: boolean, direct: DirectQuery | undefined) {
  const once = <A extends unknown[], R>(build: (...args: A) => Compilable<R>) =>
    compiledOnce(db as unknown as Kysely<never>, build, direct);
  const eventsAfter = (game: string, seq: number, sub: number, limit: number | RawBuilder<number>) =>
    db
      .selectFrom("events")
      .selectAll()
      .where("game_id", "=", game)
      .where((eb) => eb.or([eb("seq", ">", seq), eb.and([eb("seq", "=", seq), eb("sub", ">", sub)])]))
      .orderBy("seq")
      .orderBy("sub")
      .limit(limit);
  return {
    game: once((id: string) => db.selectFrom("games").selectAll().where("id", "=", id)),
    playerByToken: once((hash: string) =>
      db.selectFrom("players").selectAll().where("token_hash", "=", hash),
    ),
    turnInputs: once((game: string, tick: number) =>
      db
        .selectFrom("players")
        .leftJoin("submissions", (join) =>
          join
            .onRef("submissions.game_id", "=", "players.game_id")
            .onRef("submissions.player_id", "=", "players.id")
            .on("submissions.tick", "=", tick),
        )
        .select([
          "players.id as player_id",
          "players.name as name",
          "players.joined_at as joined_at",
          "submissions.id as submission_id",
          "submissions.text as text",
          "submissions.created_at as created_at",
        ])
        .where("players.game_id", "=", game)
        .where("players.status", "=", "active"),
    ),
    /** turnInputs at the tick after the game row's (SQLite: read with the game's row, Store.gameForTurn). */
    nextTurnInputs: once((game: string) =>
      db
        .selectFrom("players")
        .leftJoin("submissions", (join) =>
          join
            .onRef("submissions.game_id", "=", "players.game_id")
            .onRef("submissions.player_id", "=", "players.id")
            .on("submissions.tick", "=", (eb) =>
              eb
                .selectFrom("games")
                .select(sql<number>`${sql.ref("tick")} + 1`.as("next"))
                .where("id", "=", game),
            ),
        )
        .select([
          "players.id as player_id",
          "players.name as name",
          "players.joined_at as joined_at",
          "submissions.id as submission_id",
          "submissions.text as text",
          "submissions.created_at as created_at",
        ])
        .where("players.game_id", "=", game)
        .where("players.status", "=", "active"),
    ),
    /** A step's commit's check of its claim, the game's new seq and its events' numbers (SQLite: Store.#commitWrites). */
    commitCheck: once(
      (
        next: number,
        seq: number,
        tick: number,
        now: number,
        count: number,
        game: string,
        owner: string,
        answer: 0 | 1,
      ) => commitCheck(db, next, seq, tick, now, count, game, owner, answer),
    ),
    /** A step's turn row with a trace, its large texts packed (SQLite: Store.#commitWrites). */
    turnRow: once(
      (
        game_id: string,
        seq: number,
        parent: number | null,
        kind: Turn["kind"],
        tick: number,
        state: string,
        inputs: string,
        cassette: string,
        trace: string,
        result: string,
        narration: string,
        created_at: number,
      ) =>
        db.insertInto("turns").values(
          packTurn(
            {
              game_id,
              seq,
              parent,
              kind,
              tick,
              state,
              inputs,
              cassette,
              trace,
              result,
              narration,
              created_at,
            },
            packs,
          ),
        ),
    ),
    /** submissionCheck's update for one event (SQLite: Store.#submissionWrites). */
    submissionCheck: once((game: string, before: number, now: number) =>
      submissionCheck(db, game, before, 1, now),
    ),
    submission: once(
      (
        id: string,
        game_id: string,
        player_id: string,
        tick: number,
        idempotency_key: string,
        text: string,
        created_at: number,
      ) =>
        db
          .insertInto("submissions")
          .values({ id, game_id, player_id, tick, idempotency_key, text, created_at }),
    ),
    /** A submission's event, numbered by the game's row as submissionCheck left it. */
    submissionEvent: once((game: string, audience: string, kind: string, data: string, now: number) =>
      db.insertInto("events").values({
        game_id: game,
        seq: (eb) => eb.selectFrom("games").select("event_seq").where("id", "=", game),
        sub: 0,
        audience,
        kind,
        data,
        created_at: now,
      }),
    ),
    /** Store.lease's update, with a row when it claimed (SQLite: Store.claimTurn's one message). */
    claim: once((game: string, seq: number, owner: string, until: number, now: number) =>
      db
        .updateTable("games")
        .set({ lease_owner: owner, lease_until: until })
        .where("id", "=", game)
        .where("seq", "=", seq)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
        .returning("id"),
    ),
    lastTurn: once((game: string) =>
      db
        .selectFrom("turns")
        .select(["seq", "tick", packedColumn("state", packs), "parent", "kind"])
        .where("game_id", "=", game)
        .where("seq", "=", (eb) => eb.selectFrom("games").select("head").where("id", "=", game)),
    ),
    /** lastTurn, its state null when the head is step `known` (SQLite: heads.ts). */
    lastTurnKnown: once((game: string, known: number) =>
      db
        .selectFrom("turns")
        .select([
          "seq",
          "tick",
          sql<
            string | null
          >`case when ${sql.ref("seq")} = ${known} then null else tf_inflate(${sql.ref("state")}) end`.as(
            "state",
          ),
          "parent",
          "kind",
        ])
        .where("game_id", "=", game)
        .where("seq", "=", (eb) => eb.selectFrom("games").select("head").where("id", "=", game)),
    ),
    events: packs ? eventsByLimit(once, eventsAfter) : once(eventsAfter),
  };
}

/**
 * The events query on SQLite, compiled once per limit with the limit in its text: SQLite plans a
 * statement whose LIMIT is a parameter with the value bound, so it planned (parsed) the event streams'
 * read again at every run (some 6 % of its thread's CPU at the serve benchmark). The event streams use
 * one limit; past a few, a limit is a parameter as before.
 */
function eventsByLimit(
  once: <A extends unknown[], R>(build: (...args: A) => Compilable<R>) => (...args: A) => Promise<R[]>,
  build: (
    game: string,
    seq: number,
    sub: number,
    limit: number | RawBuilder<number>,
  ) => Compilable<Selectable<Database["events"]>>,
) {
  const any = once(build);
  const byLimit = new Map<
    number,
    (game: string, seq: number, sub: number) => Promise<Selectable<Database["events"]>[]>
  >();
  return (game: string, seq: number, sub: number, limit: number) => {
    let query = byLimit.get(limit);
    if (query === undefined && Number.isSafeInteger(limit) && limit >= 0 && byLimit.size < 8) {
      query = once((g: string, s: number, u: number) => build(g, s, u, sql.lit(limit)));
      byLimit.set(limit, query);
    }
    return query === undefined ? any(game, seq, sub, limit) : query(game, seq, sub);
  };
}

/** A row of the turn's inputs: an active player, with their submission for the tick when there is one. */
interface TurnInputRow {
  player_id: string;
  name: string;
  joined_at: number;
  submission_id: string | null;
  text: string | null;
  created_at: number | null;
}

/** The turn's inputs from their rows, in join order and in the order the submissions came. */
function inputsOf(rows: readonly TurnInputRow[]): TurnInputs {
  const order = <T>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);
  const players = rows
    .slice()
    .sort((a, b) => a.joined_at - b.joined_at || order(a.player_id, b.player_id))
    .map((r) => ({ id: r.player_id, name: r.name }));
  const submitted = rows
    .filter((r) => r.submission_id !== null)
    .sort((a, b) => (a.created_at ?? 0) - (b.created_at ?? 0) || order(a.submission_id, b.submission_id))
    .map((r) => ({ player_id: r.player_id, text: r.text ?? "" }));
  return { players, submitted };
}

/** A player's answer to a quest, replacing their earlier one. */
/**
 * Whether `owner` still holds the game's live claim, read in the transaction with a write (updated_at)
 * so that the row stays locked to the end of it (PostgreSQL): a claim taken over meanwhile waits.
 */
async function holdsClaim(trx: Transaction<Database>, game: string, owner: string): Promise<boolean> {
  const now = Date.now();
  const result = await trx
    .updateTable("games")
    .set({ updated_at: now })
    .where("id", "=", game)
    .where("lease_owner", "=", owner)
    .where("lease_until", ">=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function upsertQuestAnswer(trx: Transaction<Database>, row: QuestAnswerRow): Promise<void> {
  await questAnswerWrite(trx, row).execute();
}

function questAnswerWrite(db: Kysely<Database>, row: QuestAnswerRow) {
  return db
    .insertInto("quest_answers")
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(["game_id", "quest", "player_id"])
        .doUpdateSet({ answer: row.answer, tick: row.tick, created_at: row.created_at }),
    );
}

/**
 * What a game's row becomes when a story control moves its head: the claim ended, no forced turn or
 * retry pending, and the next turn opened at `now`. A step's commit writes the same (commitCheck),
 * but for a quest answer's step, which keeps the turn it is given in.
 */
function turnOpened(now: number) {
  return {
    lease_owner: null,
    lease_until: null,
    forced_tick: null,
    retry_at: null,
    turn_opened_at: now,
    updated_at: now,
  } as const;
}

/** commitCheck's `answer`: 1 for a quest answer's step, which does not open the next turn. */
function answerStep(turn: Pick<Turn, "kind">): 0 | 1 {
  return turn.kind === "answer" ? 1 : 0;
}

/**
 * A step's commit's check of its game's row, which moves it on: still claimed by `owner` at `seq`, the
 * seq the step started from (`next` is seq + 1, a parameter of its own for the compiled form); the new
 * head and tick, the claim ended, `count` event numbers taken (see insertEvents), and the game's new
 * status if any. No row: the claim lapsed, nothing is written. `answer` (1 for a quest answer's step,
 * else 0; a value, so that the compiled form serves both): an answer's step stays within the turn it
 * answers in, so that turn's force, retry time and opening (its timeout counts from it) stay as they
 * were; any other step opens the next turn (turnOpened).
 */
function commitCheck(
  db: Kysely<Database>,
  next: number,
  seq: number,
  tick: number,
  now: number,
  count: number,
  game: string,
  owner: string,
  answer: 0 | 1,
  status: Partial<Pick<Game, "status">> = {},
) {
  return db
    .updateTable("games")
    .set((eb) => ({
      seq: next,
      head: seq,
      tick,
      lease_owner: null,
      lease_until: null,
      forced_tick: sql<number | null>`case when ${answer} = 1 then forced_tick else null end`,
      retry_at: sql<number | null>`case when ${answer} = 1 then retry_at else null end`,
      turn_opened_at: sql<number>`case when ${answer} = 1 then turn_opened_at else ${now} end`,
      updated_at: now,
      event_seq: eb("event_seq", "+", count),
      ...status,
    }))
    .where("id", "=", game)
    .where("seq", "=", seq)
    .where("lease_owner", "=", owner)
    .where("lease_until", ">=", now)
    .returning("event_seq");
}

/**
 * A submission's check of its game's row, which takes its event numbers too: running, at the turn before
 * the submission's, not claimed by a step (a quest answer's claim lets submissions in). No row: refused.
 * The update also locks the row (PostgreSQL), so a claim and a submission are ordered.
 */
function submissionCheck(db: Kysely<Database>, game: string, before: number, events: number, now: number) {
  return db
    .updateTable("games")
    .set((eb) => ({ updated_at: now, event_seq: eb("event_seq", "+", events) }))
    .where("id", "=", game)
    .where("tick", "=", before)
    .where("status", "=", "running")
    .where((eb) =>
      eb.or([
        eb("lease_until", "is", null),
        eb("lease_until", "<", now),
        // A literal: SQLite plans a LIKE with its pattern bound, so a parameter made it plan the
        // statement again at every run.
        eb("lease_owner", "like", sql.lit(`${ANSWER_CLAIM}%`)),
      ]),
    )
    .returning("event_seq");
}

/**
 * Stores a game's events, numbered per game: an event for everyone takes the next `seq` (the
 * game's `event_seq`), one for a single audience (the host's log) the next `sub` after the last
 * event for everyone. The update of the game's row numbers them and locks the row (PostgreSQL) until
 * the transaction ends, so two transactions of one game never take the same number, and a number is
 * only taken by a commit: the players' ids have no gap.
 */
async function insertEvents(
  trx: Transaction<Database>,
  game: string,
  events: NewEvent[],
  numbered?: number,
  bus?: Bus,
): Promise<void> {
  if (events.length === 0) return;
  const now = Date.now();
  const count = forAll(events);
  // `numbered`: the game's event_seq after the caller's own update of its row added `count` (a step's
  // commit, a submission: that update checks the claim, this one would be a round trip more).
  let after = numbered;
  if (after === undefined) {
    const row = await trx
      .updateTable("games")
      .set((eb) => ({ event_seq: eb("event_seq", "+", count) }))
      .where("id", "=", game)
      .returning("event_seq")
      .executeTakeFirst();
    if (!row) throw new Error(`no game ${game} to store events of`);
    after = Number(row.event_seq);
  }
  let seq = after - count;
  let sub = 0;
  if (events[0]!.audience !== "all") {
    const last = await trx
      .selectFrom("events")
      .select((eb) => eb.fn.max("sub").as("sub"))
      .where("game_id", "=", game)
      .where("seq", "=", seq)
      .executeTakeFirst();
    sub = Number(last?.sub ?? 0);
    // PostgreSQL: these events go after an event a stream may already have, so their wake is sent in
    // this transaction (at its commit, before the NOTIFY of any later write of the game, which waits
    // for the game's row): a stream never takes a later write's carried events (bus.ts EventsMessage)
    // before it has read these. The caller's wake after the commit stays (this process's listeners
    // while the bus reconnects).
    const wake = bus?.wakeNotice?.(game);
    if (wake !== undefined) await sql`select pg_notify(${wake.channel}, ${wake.payload})`.execute(trx);
  }
  await trx
    .insertInto("events")
    .values(
      events.map((e) => {
        if (e.audience === "all") {
          seq++;
          sub = 0;
        } else sub++;
        return {
          game_id: game,
          seq,
          sub,
          audience: e.audience,
          kind: e.kind,
          data: JSON.stringify(e.data),
          created_at: now,
        };
      }),
    )
    .execute();
}

/** How many of the events are for everyone: each takes the next of the game's event numbers. */
function forAll(events: NewEvent[]): number {
  return events.filter((e) => e.audience === "all").length;
}

/** A unique-constraint failure, in either dialect's words. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === "23505" ||
    e?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}
