import type { Selectable } from "kysely";
import type { NewEvent } from "../events.ts";
import type { CarriedEvent, WakeNotice } from "./bus.ts";
import type { LogEntriesTable, QuestAnswersTable, SubmissionsTable, TurnsTable } from "./schema.ts";

/**
 * PostgreSQL: a step's commit and a submission, each one statement (data-modifying WITH queries) instead
 * of a transaction of five to seven: begin, the game's update, the inserts, commit were each a round trip
 * of their own, held a step's slot (a step's commit was most of its time on a busy process) and cost the
 * main thread some 0.1 ms each (pg's protocol and Kysely's promises). One statement is one transaction:
 * every part of it or none. Its writes all hang on the game's update (`g`): when the claim (or, for a
 * submission, the game's tick and freedom) does not hold, `g` is empty and nothing is written, as the
 * transaction's early return wrote nothing. The update locks the game's row as the transaction's did.
 *
 * The events' numbers come from the game's `event_seq` the update returns, in the same statement, so only
 * events whose numbering needs nothing else: the first is for everyone (an event for one audience first
 * needs the last `sub` read after the row's lock, which one statement's snapshot, taken before the lock,
 * may not show; the store then runs its transaction).
 */

/** Whether `events` can be numbered in one statement (see above). */
export function numberedAtOnce(events: readonly NewEvent[]): boolean {
  return events.length === 0 || events[0]!.audience === "all";
}

/**
 * The events of a write numbered in one statement: each event's seq as an offset from the game's
 * event_seq before them (1 for the first for everyone), its sub, as insertEvents numbers them, and its
 * data as stored. The same list is the write's wake's (bus.ts CarriedEvent).
 */
export function numberedEvents(events: readonly NewEvent[]): CarriedEvent[] {
  const out: CarriedEvent[] = [];
  let offset = 0;
  let sub = 0;
  for (const e of events) {
    if (e.audience === "all") {
      offset++;
      sub = 0;
    } else sub++;
    out.push({ o: offset, s: sub, audience: e.audience, kind: e.kind, data: JSON.stringify(e.data) });
  }
  return out;
}

/** The events' columns as arrays (unnest'ed by the statement), from numberedEvents. */
function eventArrays(events: readonly CarriedEvent[]): unknown[] {
  return [
    events.map((e) => e.o),
    events.map((e) => e.s),
    events.map((e) => e.audience),
    events.map((e) => e.kind),
    events.map((e) => e.data),
  ];
}

/** How many of numberedEvents' events are for everyone (the offset of the last). */
function countForAll(events: readonly CarriedEvent[]): number {
  return events.at(-1)?.o ?? 0;
}

/**
 * The select that ends a write's statement: the game's new event_seq, and its wake's NOTIFY when
 * given (delivered at the commit); a wake that carries its events is numbered by that event_seq.
 */
function endOf(wake: WakeNotice | undefined, at: number): string {
  if (wake === undefined) return "select event_seq from g";
  const payload = wake.numbered ? `$${at + 1}::text || g.event_seq::text || '}'` : `$${at + 1}::text`;
  return `select event_seq, pg_notify($${at}::text, ${payload}) from g`;
}

/** The events insert of a statement whose game update is `g`: parameters from `$at` (eventArrays), the game `$game`, the count `$count`, the time `$now`. */
function insertEvents(at: number, game: string, count: string, now: string): string {
  return `e as (
    insert into events (game_id, seq, sub, audience, kind, data, created_at)
    select ${game}, g.event_seq - ${count} + e.o, e.s, e.audience, e.kind, e.data, ${now}
    from g, unnest($${at}::int8[], $${at + 1}::int8[], $${at + 2}::text[], $${at + 3}::text[], $${at + 4}::text[])
      as e(o, s, audience, kind, data)
  )`;
}

type Turn = Selectable<TurnsTable>;
type LogRow = Omit<Selectable<LogEntriesTable>, "game_id" | "seq" | "n">;
type QuestAnswerRow = Selectable<QuestAnswersTable>;

const COMMIT_STEP = `with g as (
    update games set seq = $1::int8 + 1, head = $1::int8, tick = $2::int8, lease_owner = null,
      lease_until = null, forced_tick = case when $9::text = 'answer' then forced_tick end,
      retry_at = case when $9::text = 'answer' then retry_at end,
      turn_opened_at = case when $9::text = 'answer' then turn_opened_at else $3::int8 end,
      updated_at = $3::int8, event_seq = event_seq + $4::int8, status = coalesce($5::text, status)
    where id = $6::text and seq = $1::int8 and lease_owner = $7::text and lease_until >= $3::int8
    returning event_seq
  ), t as (
    insert into turns (game_id, seq, parent, kind, tick, state, inputs, cassette, trace, result, narration, created_at)
    select $6::text, $1::int8, $8::int8, $9::text, $2::int8, $10::text, $11::text, $12::text, $13::text,
      $14::text, $15::text, $16::int8
    from g
  ), b as (
    update branch_names set seq = $1::int8
    where game_id = $6::text and seq = $8::int8 and exists (select from g)
  ), l as (
    insert into log_entries (game_id, seq, n, tick, phase, trigger, type, message)
    select $6::text, $1::int8, l.n - 1, l.tick, l.phase, l.trigger, l.type, l.message
    from g, unnest($17::int8[], $18::text[], $19::text[], $20::text[], $21::text[])
      with ordinality as l(tick, phase, trigger, type, message, n)
  ), ${insertEvents(22, "$6::text", "$4::int8", "$3::int8")}`;

/** The quest answer's upsert of a step that answers one (Store's upsertQuestAnswer). */
const COMMIT_ANSWER = `, a as (
    insert into quest_answers (game_id, quest, player_id, answer, tick, created_at)
    select $27::text, $28::text, $29::text, $30::text, $31::int8, $32::int8 from g
    on conflict (game_id, quest, player_id)
    do update set answer = excluded.answer, tick = excluded.tick, created_at = excluded.created_at
  )`;

/**
 * Store.commitStep's statement and parameters: a row back (the game's new event_seq) when the claim
 * held and the step is committed, none when it did not (nothing written). `wake`: the game's wake
 * (Bus.wakeNotice, after what was published before it), sent by the statement at its commit.
 */
export function commitStepStatement(
  turn: Turn,
  owner: string,
  logs: readonly LogRow[],
  events: readonly CarriedEvent[],
  status: string | undefined,
  answer: QuestAnswerRow | undefined,
  now: number,
  wake?: WakeNotice,
): { text: string; values: unknown[] } {
  const values: unknown[] = [
    turn.seq,
    turn.tick,
    now,
    countForAll(events),
    status ?? null,
    turn.game_id,
    owner,
    turn.parent,
    turn.kind,
    turn.state,
    turn.inputs,
    turn.cassette,
    turn.trace,
    turn.result,
    turn.narration,
    turn.created_at,
    logs.map((l) => l.tick),
    logs.map((l) => l.phase),
    logs.map((l) => l.trigger),
    logs.map((l) => l.type),
    logs.map((l) => l.message),
    ...eventArrays(events),
  ];
  let text = COMMIT_STEP;
  if (answer !== undefined) {
    values.push(
      answer.game_id,
      answer.quest,
      answer.player_id,
      answer.answer,
      answer.tick,
      answer.created_at,
    );
    text += COMMIT_ANSWER;
  }
  if (wake !== undefined) values.push(wake.channel, wake.payload);
  return { text: `${text} ${endOf(wake, values.length - 1)}`, values };
}

const ADD_SUBMISSION = `with g as (
    update games set updated_at = $1::int8, event_seq = event_seq + $2::int8
    where id = $3::text and tick = $4::int8 - 1 and status = 'running'
      and (lease_until is null or lease_until < $1::int8 or lease_owner like $5::text)
    returning event_seq
  ), s as (
    insert into submissions (id, game_id, player_id, tick, idempotency_key, text, created_at)
    select $6::text, $3::text, $7::text, $4::int8, $8::text, $9::text, $10::int8 from g
  ), ${insertEvents(11, "$3::text", "$2::int8", "$1::int8")}`;

/**
 * Store.addSubmission's statement and parameters (`freeClaim`: the LIKE pattern of a claim under which
 * submissions are still stored): a row back when the submission is stored, none when the game is busy
 * or not at its tick; a duplicate fails with a unique violation, as the transaction's insert did.
 * `wake`: the game's wake (Bus.wakeNotice), sent by the statement, at its commit, when it stored the
 * submission: no NOTIFY round trip of its own after it.
 */
export function addSubmissionStatement(
  row: SubmissionsTable,
  events: readonly CarriedEvent[],
  freeClaim: string,
  now: number,
  wake: WakeNotice | undefined,
): { text: string; values: unknown[] } {
  const values = [
    now,
    countForAll(events),
    row.game_id,
    row.tick,
    freeClaim,
    row.id,
    row.player_id,
    row.idempotency_key,
    row.text,
    row.created_at,
    ...eventArrays(events),
  ];
  if (wake !== undefined) values.push(wake.channel, wake.payload);
  return { text: `${ADD_SUBMISSION} ${endOf(wake, values.length - 1)}`, values };
}

/**
 * Store.claimTurn's statement: a turn's claim, the inputs it runs on (the game's active players and
 * their submissions for `tick`: Store.turnInputs) and the state it starts from (Store.lastTurn), in one
 * round trip instead of three, all while the step holds its slot. Rows back: `g` when the claim was
 * taken, with a `p` row per active player and the `t` row of the head's state; none when it was not.
 *
 * The reads see the statement's snapshot, taken before the update waits for the game's row lock. A
 * submission that commits in that window would be missing from them, and its action lost (it was
 * acknowledged: the claim did not hold yet). Every submission updates the game's row in its
 * transaction, so the claim also requires the row's version (`xmin`) to be the one its snapshot read:
 * PostgreSQL re-checks the update's conditions on the newest version after the wait (the subquery's
 * value is the snapshot's), and a row changed meanwhile leaves the claim untaken (no row back; the
 * store then claims and reads apart, as before). Once the claim holds, no submission for `tick` gets in.
 */
export const CLAIM_TURN = `with seen as (select xmin as x from games where id = $1::text),
  g as (
    update games set lease_owner = $2::text, lease_until = $3::int8
    where id = $1::text and seq = $4::int8 and (lease_until is null or lease_until < $5::int8)
      and xmin = (select x from seen)
    returning head
  )
  select 'g' as r, null::text as player_id, null::text as name, null::int8 as joined_at,
    null::text as submission_id, null::text as text, null::int8 as created_at, null::int8 as seq,
    null::int8 as tick, null::text as state, null::int8 as parent, null::text as kind
  from g
  union all
  select 'p', p.id, p.name, p.joined_at, s.id, s.text, s.created_at, null, null, null, null, null
  from g cross join players p
    left join submissions s on s.game_id = p.game_id and s.player_id = p.id and s.tick = $6::int8
  where p.game_id = $1::text and p.status = 'active'
  union all
  select 't', null, null, null, null, null, null, t.seq, t.tick, t.state, t.parent, t.kind
  from g join turns t on t.game_id = $1::text and t.seq = g.head`;

/**
 * Store.gameForTurn's statement: the game's row (as `select *` gives it) and, with it, the inputs of
 * its next turn (its active players and their submissions for tick + 1), one row per active player
 * (one with nulls when it has none): the runner's look at whether a turn is due, one round trip
 * instead of two. The inputs' columns are named `tf.*` apart from the game's.
 */
export const GAME_FOR_TURN = `select g.*, i.player_id as "tf.player_id", i.name as "tf.name",
    i.joined_at as "tf.joined_at", i.submission_id as "tf.submission_id", i.text as "tf.text",
    i.created_at as "tf.created_at"
  from games g left join lateral (
    select p.id as player_id, p.name, p.joined_at, s.id as submission_id, s.text, s.created_at
    from players p
      left join submissions s on s.game_id = p.game_id and s.player_id = p.id and s.tick = g.tick + 1
    where p.game_id = g.id and p.status = 'active'
  ) i on true
  where g.id = $1::text`;

/**
 * Store.callerByToken's statement: a player's row (by its token's hash) and its game's row (as
 * `select *` gives it), the route's auth in one round trip instead of two. The player's columns are
 * named `tf.*` apart from the game's.
 */
export const CALLER_BY_TOKEN = `select g.*, p.id as "tf.id", p.game_id as "tf.game_id", p.name as "tf.name",
    p.spec as "tf.spec", p.token_hash as "tf.token_hash", p.status as "tf.status",
    p.joined_at as "tf.joined_at", p.name_key as "tf.name_key"
  from players p join games g on g.id = p.game_id
  where p.token_hash = $1::text`;
