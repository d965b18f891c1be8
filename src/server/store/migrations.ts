import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";
import { nameSkeleton } from "../names.ts";

export type Dialect = "sqlite" | "postgres";

/**
 * The store's migrations, for both dialects: one list, applied in name order
 * by Kysely's Migrator. Append new ones; never edit one that has shipped.
 * Integer columns that may exceed 32 bits (times, seeds) are bigint on
 * PostgreSQL (SQLite integers are 64-bit already).
 */
export function migrations(dialect: Dialect): MigrationProvider {
  const big = dialect === "postgres" ? "bigint" : "integer";
  const initial: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("worlds")
        .addColumn("hash", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("bytes", big, (c) => c.notNull())
        .addColumn("warnings", "text", (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("games")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("world_hash", "text", (c) => c.notNull().references("worlds.hash"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("host_token_hash", "text", (c) => c.notNull().unique())
        .addColumn("invite_code", "text", (c) => c.notNull().unique())
        .addColumn("seed", big, (c) => c.notNull())
        .addColumn("story_start", "text")
        .addColumn("game_mode", "text")
        .addColumn("narrator", "text", (c) => c.notNull())
        .addColumn("seq", big, (c) => c.notNull())
        .addColumn("tick", big, (c) => c.notNull())
        .addColumn("forced_tick", big)
        .addColumn("turn_timeout_ms", big)
        .addColumn("turn_opened_at", big)
        .addColumn("lease_owner", "text")
        .addColumn("lease_until", big)
        .addColumn("created_at", big, (c) => c.notNull())
        .addColumn("updated_at", big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("players")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("spec", "text", (c) => c.notNull())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("joined_at", big, (c) => c.notNull())
        .addUniqueConstraint("players_game_name", ["game_id", "name"])
        .execute();
      await db.schema
        .createTable("submissions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("player_id", "text", (c) => c.notNull().references("players.id"))
        .addColumn("tick", big, (c) => c.notNull())
        .addColumn("idempotency_key", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .addUniqueConstraint("submissions_key", ["game_id", "player_id", "idempotency_key"])
        .addUniqueConstraint("submissions_turn", ["game_id", "player_id", "tick"])
        .execute();
      await db.schema
        .createTable("turns")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("seq", big, (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("tick", big, (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("inputs", "text", (c) => c.notNull())
        .addColumn("cassette", "text", (c) => c.notNull())
        .addColumn("trace", "text")
        .addColumn("result", "text", (c) => c.notNull())
        .addColumn("narration", "text", (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .addPrimaryKeyConstraint("turns_pk", ["game_id", "seq"])
        .execute();
      await db.schema
        .createTable("log_entries")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("seq", big, (c) => c.notNull())
        .addColumn("n", big, (c) => c.notNull())
        .addColumn("tick", big, (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("trigger", "text")
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("log_entries_pk", ["game_id", "seq", "n"])
        .execute();
      await db.schema
        .createTable("events")
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (c) =>
          dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("audience", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("events_game").on("events").columns(["game_id", "id"]).execute();
      await db.schema.createIndex("log_game_tick").on("log_entries").columns(["game_id", "tick"]).execute();
      await db.schema.createIndex("games_lease").on("games").columns(["status", "lease_until"]).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ["events", "log_entries", "turns", "submissions", "players", "games", "worlds"])
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
    },
  };
  const questAnswers: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("quest_answers")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("quest", "text", (c) => c.notNull())
        .addColumn("player_id", "text", (c) => c.notNull().references("players.id"))
        .addColumn("answer", "text", (c) => c.notNull())
        .addColumn("tick", big, (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .addPrimaryKeyConstraint("quest_answers_pk", ["game_id", "quest", "player_id"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists ${sql.table("quest_answers")}`.execute(db);
    },
  };
  /**
   * PostgreSQL: a turn's row holds some 30 KB of text (the save, the cassette, the trace), which
   * PostgreSQL compresses as it stores it; lz4 does that with about half the database's CPU of its
   * default (pglz): measured, 0.6 against 1.1 ms per turn row. lz4 needs PostgreSQL 14 built with
   * it (the usual packages are); without it the columns keep the default. Rows already stored stay as
   * they are. Nothing changes on SQLite, and nothing in the schema's columns.
   */
  /** The compression of the turns' text columns (PostgreSQL 14+), `tolerant` of a build without it. */
  const setTurnsCompression = (method: "lz4" | "default", tolerant: boolean) =>
    sql`
      do $$
      begin
        if current_setting('server_version_num')::int >= 140000 then
          alter table turns
            ${sql.raw(
              ["state", "inputs", "cassette", "trace", "result", "narration"]
                .map((column) => `alter column ${column} set compression ${method}`)
                .join(",\n            "),
            )};
        end if;
      ${sql.raw(
        tolerant
          ? "exception when feature_not_supported or invalid_parameter_value then\n        -- This PostgreSQL was built without lz4: the default compression stays.\n        null;"
          : "",
      )}
      end
      $$`;
  const turnsLz4: Migration = {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await setTurnsCompression("lz4", true).execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "postgres") await setTurnsCompression("default", false).execute(db);
    },
  };
  /** When a failed step is due again (see GamesTable.retry_at); the sweep finds due games by it. */
  const retryAt: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("games").addColumn("retry_at", big).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("games").dropColumn("retry_at").execute();
    },
  };
  /**
   * Event ids per game (docs/server.md "Events"): `seq` numbers a game's events for everyone 1, 2, 3...
   * with no gap; an event for one audience only (the host's log) is numbered after the last one for
   * everyone (`sub` 1, 2...), so the players' ids have no gap where the host's events are. Players' names
   * keep their confusable skeleton (`name_key`, src/server/names.ts), unique per game.
   */
  const eventSeq: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("games")
        .addColumn("event_seq", big, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("events")
        .addColumn("seq", big, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("events")
        .addColumn("sub", big, (c) => c.notNull().defaultTo(0))
        .execute();
      // The events stored so far, numbered as new ones are: in the order of their old (global) ids.
      await sql`
        update events set seq = (
          select count(*) from events e2
          where e2.game_id = events.game_id and e2.audience = 'all' and e2.id <= events.id
        )`.execute(db);
      await sql`
        update events set sub = (
          select count(*) from events e2
          where e2.game_id = events.game_id and e2.audience <> 'all' and e2.seq = events.seq and e2.id <= events.id
        ) where audience <> 'all'`.execute(db);
      await sql`
        update games set event_seq = (
          select count(*) from events where events.game_id = games.id and events.audience = 'all'
        )`.execute(db);
      await db.schema
        .createIndex("events_game_seq")
        .unique()
        .on("events")
        .columns(["game_id", "seq", "sub"])
        .execute();
      await db.schema.alterTable("players").addColumn("name_key", "text").execute();
      const players = await sql<{ id: string; game_id: string; name: string }>`
        select id, game_id, name from players order by joined_at, id`.execute(db);
      const taken = new Set<string>();
      for (const p of players.rows) {
        const key = nameSkeleton(p.name);
        // Names that look alike joined before this version: the first keeps the key, the others none.
        if (taken.has(`${p.game_id} ${key}`)) continue;
        taken.add(`${p.game_id} ${key}`);
        await sql`update players set name_key = ${key} where id = ${p.id}`.execute(db);
      }
      await db.schema
        .createIndex("players_game_name_key")
        .unique()
        .on("players")
        .columns(["game_id", "name_key"])
        .execute();
      // Who stored each world ("operator", "host:<game>", "address:<ip>", "bundled"; null: stored before),
      // for the upload quotas.
      await db.schema.alterTable("worlds").addColumn("uploader", "text").execute();
      await db.schema.createIndex("worlds_uploader").on("worlds").columns(["uploader"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("worlds_uploader").execute();
      await db.schema.alterTable("worlds").dropColumn("uploader").execute();
      await db.schema.dropIndex("players_game_name_key").execute();
      await db.schema.alterTable("players").dropColumn("name_key").execute();
      await db.schema.dropIndex("events_game_seq").execute();
      await db.schema.alterTable("events").dropColumn("sub").execute();
      await db.schema.alterTable("events").dropColumn("seq").execute();
      await db.schema.alterTable("games").dropColumn("event_seq").execute();
    },
  };
  const creatorStrikes: Migration = {
    async up(db: Kysely<unknown>) {
      // Who made the game ("address:<ip>"; null: made before): the fair share of step slots is per
      // creator, so one client's many games share one host's part (runner.ts, StepSlots).
      await db.schema.alterTable("games").addColumn("creator", "text").execute();
      // Turns in a row whose scripts ran out of their budget: kept with the game, so that the slowing
      // and the pause hold across restarts and processes (runner.ts, SLOW_AFTER and PAUSE_AFTER).
      await db.schema
        .alterTable("games")
        .addColumn("budget_strikes", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("games").dropColumn("budget_strikes").execute();
      await db.schema.alterTable("games").dropColumn("creator").execute();
    },
  };
  /**
   * A game's steps are a tree (issue 33: retry, undo, rewind, branches): each turn row points to the
   * step it was played from (`parent`), and the game to the step it is at (`head`); the transcript,
   * the last state and the cassette follow the path from the opening to the head. Games stored before
   * were linear: each row's parent is the row before it, and the head is the newest row.
   */
  const turnsParent: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("turns").addColumn("parent", big).execute();
      await db.schema.alterTable("games").addColumn("head", big).execute();
      // The tree's shape read without a turn's row (its save, cassette and trace are tens of KB, and the
      // new column is stored after them): the path to the head in one index-only read.
      await db.schema
        .createIndex("turns_tree")
        .on("turns")
        .columns(["game_id", "seq", "parent", "kind", "tick"])
        .execute();
      await sql`update turns set parent = seq - 1 where seq > 0`.execute(db);
      await sql`update games set head = (
          select max(t.seq) from turns t where t.game_id = games.id
        )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("turns_tree").execute();
      await db.schema.alterTable("games").dropColumn("head").execute();
      await db.schema.alterTable("turns").dropColumn("parent").execute();
    },
  };
  /**
   * Who may use the story controls (issue 33, host/party-controls.ts) and the party's vote on one:
   * `controls` (JSON; null: the defaults), `vote` (JSON: the game's latest vote, open or closed, with
   * its outcome), `vote_id` (the open vote's id; null: none open, so at most one is), and, to find the
   * votes to close without reading their JSON, `vote_seq` (the game's seq when it opened: a step since
   * makes it stale) and `vote_closes_at`.
   */
  const controlsVote: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("games").addColumn("controls", "text").execute();
      await db.schema.alterTable("games").addColumn("vote", "text").execute();
      await db.schema.alterTable("games").addColumn("vote_id", "text").execute();
      await db.schema.alterTable("games").addColumn("vote_seq", big).execute();
      await db.schema.alterTable("games").addColumn("vote_closes_at", big).execute();
      // Every sweep looks for the open votes to close: few games have one.
      await db.schema.createIndex("games_vote").on("games").column("vote_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("games_vote").execute();
      for (const column of ["vote_closes_at", "vote_seq", "vote_id", "vote", "controls"])
        await db.schema.alterTable("games").dropColumn(column).execute();
    },
  };
  /**
   * Branch names (issue 33): a name is kept with its branch's tip, the step it ends at, and moves to
   * the step played from it (store.commitStep), so it stays with its branch as the branch grows. Unique
   * per game by its folded form (`name_key`).
   */
  const branchNames: Migration = {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("branch_names")
        .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
        .addColumn("seq", big, (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("name_key", "text", (c) => c.notNull())
        .addColumn("created_at", big, (c) => c.notNull())
        .addPrimaryKeyConstraint("branch_names_pk", ["game_id", "seq"])
        .addUniqueConstraint("branch_names_game_key", ["game_id", "name_key"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("branch_names").execute();
    },
  };
  /**
   * PostgreSQL: every sweep of every process looks for the live claims of processes that are gone
   * (Store.releaseAbsentClaims), by their deadline whatever the game's status: an index of it alone
   * (games_lease leads with the status). SQLite has one process, which never looks.
   */
  const claimsIndex: Migration = {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres")
        await db.schema.createIndex("games_lease_until").on("games").column("lease_until").execute();
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "postgres") await db.schema.dropIndex("games_lease_until").execute();
    },
  };
  return {
    getMigrations: async () => ({
      "0001_initial": initial,
      "0002_quest_answers": questAnswers,
      "0003_turns_lz4": turnsLz4,
      "0004_games_retry_at": retryAt,
      "0005_event_seq": eventSeq,
      "0006_games_creator_strikes": creatorStrikes,
      "0007_turns_parent": turnsParent,
      "0008_games_controls_vote": controlsVote,
      "0009_branch_names": branchNames,
      "0010_games_lease_until": claimsIndex,
    }),
  };
}
