import type { ColumnType, Generated } from "kysely";

/**
 * The one schema of the server's store, for SQLite and PostgreSQL alike
 * (migrations.ts creates it). Times are epoch milliseconds; JSON is stored as
 * text so that both dialects read it the same way.
 */
export interface Database {
  worlds: WorldsTable;
  games: GamesTable;
  players: PlayersTable;
  submissions: SubmissionsTable;
  turns: TurnsTable;
  log_entries: LogEntriesTable;
  events: EventsTable;
  quest_answers: QuestAnswersTable;
}

/** Uploaded world files, content-addressed: the same bytes are stored once. */
export interface WorldsTable {
  /** sha256 of the file's bytes, hex. */
  hash: string;
  name: string;
  text: string;
  bytes: number;
  /** The check's warnings, as the JSON diagnostics of `taleforge check --format json`. */
  warnings: string;
  created_at: number;
  /** Who stored it, for the upload quotas ("operator", "host:<game id>", "address:<ip>", "bundled"). */
  uploader: Generated<string | null>;
}

export type GameStatus = "lobby" | "running" | "paused" | "ended";

export interface GamesTable {
  id: string;
  world_hash: string;
  status: GameStatus;
  host_token_hash: string;
  invite_code: string;
  seed: number;
  story_start: string | null;
  game_mode: string | null;
  /** "offline" or "server" (the narrator the server was started with). */
  narrator: string;
  /**
   * The next state row's seq. A story control that moves the head without a new row (undo, rewind, a
   * branch switch) moves it on too, so a claim taken at the seq before it fails: a control applies once.
   */
  seq: number;
  /** The seq of the step the game is at (its current branch ends there); null before the opening. */
  head: ColumnType<number | null, number | null | undefined, number | null>;
  tick: number;
  /** The `seq` of the game's newest event for everyone (0: none yet). */
  event_seq: Generated<number>;
  /** The tick the host asked to run without waiting for every player (null: none). */
  forced_tick: number | null;
  /** Optional per-game turn timeout; the turn runs with what was submitted when it passes. */
  turn_timeout_ms: number | null;
  /** When the current turn opened (the last commit), for the timeout. */
  turn_opened_at: number | null;
  /** The process running a step of this game, and until when its claim holds. */
  lease_owner: string | null;
  lease_until: number | null;
  /**
   * When the game's next step failed (a narrator error, a bug): the earliest time the sweep runs it
   * again. null: nothing failed since the last commit. A host's forced turn clears it.
   */
  retry_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Who made the game ("address:<ip>"), for the fair share of step slots per creator; null: unknown. */
  creator: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who may use the story controls (JSON PartyControls, host/party-controls.ts); null: the defaults. */
  controls: ColumnType<string | null, string | null | undefined, string | null>;
  /** The game's latest party vote on a story control (JSON, votes.ts `StoredVote`), open or closed. */
  vote: ColumnType<string | null, string | null | undefined, string | null>;
  /** The open vote's id; null when none is open (so at most one is: a vote opens only where it is null). */
  vote_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The game's seq when the open vote opened: a step since (a turn) makes it stale. */
  vote_seq: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the open vote closes (epoch ms). */
  vote_closes_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Turns in a row whose scripts ran out of their budget (runner.ts: slowed, then paused). */
  budget_strikes: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PlayersTable {
  id: string;
  game_id: string;
  /** The character's name in the party. */
  name: string;
  /** The character as asked at join (JSON PlayerSpec). */
  spec: string;
  token_hash: string;
  /** "open": the host freed the seat; the next to join as its character takes it (table.ts). */
  status: "active" | "kicked" | "open";
  joined_at: number;
  /** The name's confusable skeleton (names.ts), unique per game; null for a look-alike joined before it was kept. */
  name_key: Generated<string | null>;
}

export interface SubmissionsTable {
  id: string;
  game_id: string;
  player_id: string;
  /** The tick this action is for (the game's tick + 1 when submitted). */
  tick: number;
  idempotency_key: string;
  text: string;
  created_at: number;
}

/** One state change of a game: the opening, a turn, a quest answer or an import. */
export interface TurnsTable {
  game_id: string;
  seq: number;
  kind: "opening" | "turn" | "answer" | "import";
  /** The seq of the step this one was played from (null: the opening or an import); the steps form a tree. */
  parent: ColumnType<number | null, number | null | undefined, number | null>;
  tick: number;
  /** The save text after this step (what `taleforge play --load` reads). */
  state: string;
  /** JSON: the host inputs of this step (actions or a quest answer). */
  inputs: string;
  /** JSON: the cassette entries of this step (inputs and AI calls, in order). */
  cassette: string;
  /** JSON: the whole turn result with its trace (host only), or null. */
  trace: string | null;
  /** JSON: the result players see (fired triggers, prompts, quest changes). */
  result: string;
  narration: string;
  created_at: number;
}

export interface LogEntriesTable {
  game_id: string;
  seq: number;
  n: number;
  tick: number;
  phase: string;
  trigger: string | null;
  type: string;
  message: string;
}

/** What SSE listeners receive, in id order; stored so that a client can resume with Last-Event-ID. */
export interface EventsTable {
  id: Generated<number>;
  game_id: string;
  /** The game's events for everyone, numbered 1, 2, 3... without a gap (games.event_seq is the last). */
  seq: number;
  /** 0 for an event for everyone; 1, 2... for the events for one audience after event `seq`. */
  sub: number;
  /** "all", "host", or a player id. */
  audience: string;
  kind: string;
  data: string;
  created_at: number;
}

/** Each player's latest answer to a quest (docs/server.md "Quest answers"): the party decides from them. */
export interface QuestAnswersTable {
  game_id: string;
  quest: string;
  player_id: string;
  /** "accept", "reject" or "abandon". */
  answer: string;
  /** The game's tick when the player answered. */
  tick: number;
  created_at: number;
}
