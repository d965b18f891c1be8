import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";

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
  return {
    getMigrations: async () => ({
      "0001_initial": initial,
      "0002_quest_answers": questAnswers,
      "0003_turns_lz4": turnsLz4,
      "0004_games_retry_at": retryAt,
    }),
  };
}
