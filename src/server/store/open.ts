import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Kysely, Migrator } from "kysely";
import type pg from "pg";
import { ApiError } from "../errors.ts";
import { type Bus, localBus, postgresBus } from "./bus.ts";
import { ScopedPostgresDialect } from "./introspector.ts";
import { lockDataFolder } from "./lock.ts";
import { type Dialect, migrations } from "./migrations.ts";
import { type DirectQuery, preparingPool } from "./prepared.ts";
import type { Database } from "./schema.ts";
import { SqliteThread, SqliteThreadDialect } from "./sqlite-thread.ts";

export interface StoreOptions {
  /** The data folder of the embedded SQLite store (created when missing). */
  data?: string;
  /** A postgresql:// URL: the store is then that database, shared by every process using it. */
  database?: string;
  /** PostgreSQL only: the schema to use (created when missing); the tests use a fresh one per run. */
  schema?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export interface OpenStore {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Wakes the listeners of a game (every process on PostgreSQL). */
  bus: Bus;
  /**
   * SQLite only: the same store, its writes committed without waiting for the disk (synchronous =
   * NORMAL for each such write alone). For the claims of steps; see Store.claimWrite.
   */
  relaxed?: Kysely<Database>;
  /**
   * SQLite only: the same store, its writes taking the one writing connection before the ordinary
   * writes waiting for it. For the commits of steps (and, with `relaxed`, their claims): see
   * ConnectionMutex in sqlite-thread.ts.
   */
  steps?: Kysely<Database>;
  /**
   * PostgreSQL only: one statement run outside Kysely, as its own transaction (prepared.ts
   * DirectQuery), for the queries every turn makes.
   */
  direct?: DirectQuery;
  /**
   * SQLite only: a whole transaction in one message to SQLite's thread (SqliteThread.atomic), for the
   * writes every turn makes: its first statement's rows, [] when it returned none (nothing written).
   */
  atomic?: SqliteThread["atomic"];
  /** SQLite only: atomic, with the rows of its later statements too, and relaxed when asked (SqliteThread.transaction). */
  transaction?: SqliteThread["transaction"];
  /** SQLite only: selects outside transactions in one message to SQLite's thread (SqliteThread.reads). */
  reads?: SqliteThread["reads"];
  /**
   * PostgreSQL only: this process's presence, the name (application_name) of its event bus's
   * connection, which PostgreSQL lists in pg_stat_activity for as long as the process lives. Its
   * claims end with `@` and it, so that another process releases them as soon as the connection is
   * gone (Store.releaseAbsentClaims) instead of waiting for them to lapse. Undefined on SQLite, and
   * where the process cannot see its own connection listed (a pooler in between): claims then lapse.
   */
  presence?: string;
  /** A short description for the logs: never the password. */
  describe: string;
  close(): Promise<void>;
}

/** Opens (and migrates forward) the store: SQLite under `data`, or the PostgreSQL database `database`. */
export async function openStore(options: StoreOptions): Promise<OpenStore> {
  if (options.database !== undefined) return openPostgres(options.database, options);
  const folder = options.data ?? "taleforge-data";
  mkdirSync(folder, { recursive: true });
  const unlock = lockDataFolder(folder);
  try {
    const file = join(folder, "taleforge.sqlite");
    // The connection lives in a thread of its own, so that SQLite's work never blocks the event loop.
    const thread = await SqliteThread.open(file);
    const db = new Kysely<Database>({ dialect: new SqliteThreadDialect(thread) });
    try {
      await migrate(db, "sqlite");
      await releaseDeadClaims(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    return {
      db,
      relaxed: new Kysely<Database>({
        dialect: new SqliteThreadDialect(thread, { relaxed: true, urgent: true }),
      }),
      steps: new Kysely<Database>({ dialect: new SqliteThreadDialect(thread, { urgent: true }) }),
      atomic: (first, then) => thread.atomic(first, then),
      transaction: (first, then, how) => thread.transaction(first, then, how),
      reads: (first, reads) => thread.reads(first, reads),
      dialect: "sqlite",
      bus: localBus(),
      describe: `sqlite ${file}`,
      async close() {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openPostgres(url: string, options: StoreOptions): Promise<OpenStore> {
  // Loaded here, not with the module: a server on SQLite never loads pg (some 100 ms of its start).
  const { default: pg } = await import("pg");
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new ApiError("store/config", "schema-name", { schema });
  // int8 (bigint) columns hold times and seeds, all far below 2^53: read them as numbers.
  // One parser for every int8 column of every query (pg asks for each column's parser at each query).
  const int8 = (v: string) => Number(v);
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === 20 ? int8 : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
  };
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  };
  if (schema !== undefined) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {}); // a lost connection fails the query below; it must not kill the process
    await client.connect().catch((error: unknown) => {
      throw unreachable(url, error);
    });
    try {
      await client.query(`create schema if not exists ${schema}`);
    } catch (error) {
      // Two processes starting at once on a new schema: `if not exists` can still fail with a duplicate key in
      // pg_namespace for the one that lost the race; the schema is there all the same.
      const code = (error as { code?: string }).code;
      if (code !== "23505" && code !== "42P06") throw error;
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool(config);
  pool.on("error", () => {
    // An idle client lost its connection (the server restarted): the pool replaces it on the next query.
  });
  pool.on("connect", (client) => {
    // The pool listens for errors only on idle clients. A client checked out between two queries (a
    // turn's transaction) that loses its connection emits `error` with no listener, and an unhandled
    // `error` kills the process. Its next query fails instead, and the pool drops it on release.
    client.on("error", () => {});
  });
  // The first connection says what is wrong with --database (no such database, a refused login, nothing
  // listening there) in its own words, not as a migration that failed.
  try {
    await pool.query("select 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw unreachable(url, error);
  }
  const prepared = preparingPool(pool, pg.Query);
  const db = new Kysely<Database>({
    dialect: new ScopedPostgresDialect({ pool: prepared }, schema ?? "public"),
  });
  try {
    await migrate(db, "postgres", schema ?? "public");
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const presence = `${PRESENCE_PREFIX}${randomBytes(12).toString("hex")}`;
  const bus = await postgresBus({ ...config, application_name: presence });
  const where = new URL(url);
  return {
    db,
    dialect: "postgres",
    direct: prepared.direct,
    bus,
    ...((await presenceSeen(pool, presence)) ? { presence } : {}),
    describe: `postgresql ${where.hostname}:${where.port || 5432}${where.pathname}${schema ? ` schema ${schema}` : ""}`,
    async close() {
      await bus.close();
      await db.destroy();
    },
  };
}

/** The start of a presence (OpenStore.presence): letters, digits and `-` only, so that LIKE takes it literally. */
export const PRESENCE_PREFIX = "taleforge-";

/**
 * Whether this process sees its bus's connection in pg_stat_activity under `presence`: not through a
 * pooler that hides it, nor on a server that does not keep application_name. Only then may other
 * processes (which see what this one sees) release its claims when it is gone.
 */
async function presenceSeen(pool: pg.Pool, presence: string): Promise<boolean> {
  try {
    const seen = await pool.query(
      "select 1 from pg_stat_activity where application_name = $1 and datname = current_database()",
      [presence],
    );
    return seen.rowCount === 1;
  } catch {
    return false;
  }
}

/** `schema`: PostgreSQL's, named so that Kysely looks for its own tables there and not in another schema. */
async function migrate(db: Kysely<Database>, dialect: Dialect, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrations(dialect),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed =
      results?.find((r) => r.status === "Error")?.migrationName ?? "its start (before any migration ran)";
    throw new ApiError(
      "store/migration",
      "migration-failed",
      { migration: failed, reason: (error as Error).message ?? String(error) },
      { migration: failed },
    );
  }
}

/**
 * A PostgreSQL server that could not be reached or opened at the start, as `store/unreachable` naming
 * what to check. The server is named by host, port and database only: never the URL's password.
 */
function unreachable(url: string, error: unknown): ApiError {
  let host = "?";
  let port = "5432";
  let database = "?";
  try {
    const where = new URL(url);
    host = decodeURIComponent(where.hostname) || "localhost";
    port = where.port || "5432";
    database = decodeURIComponent(where.pathname.replace(/^\//, "")) || "?";
  } catch {
    // Not a URL pg reads either: its own message says so below.
  }
  const server = `${host}:${port}`;
  const code = (error as { code?: string }).code ?? "";
  const reason = (error as Error).message || code || String(error);
  const details = { server, database, ...(code ? { cause: code } : {}) };
  if (code === "3D000")
    return new ApiError("store/unreachable", "no-database", { server, host, port, database }, details);
  if (code === "28P01" || code === "28000")
    return new ApiError("store/unreachable", "login", { server, reason }, details);
  if (/^E[A-Z]+$/.test(code))
    return new ApiError("store/unreachable", "connect", { server, reason }, details);
  return new ApiError("store/unreachable", "other", { server, reason }, details);
}

/**
 * SQLite serves from one process (the data folder's lock): any claim in the store when it opens is a
 * claim of a process that died (kill -9) or stopped without handing it back. It is released now, so
 * that its turn runs at the first sweep rather than when its lease would have lapsed (up to LEASE_MS
 * later): that wait was most of the recovery after kill -9 on SQLite (docs/server.md, "Consistency").
 */
async function releaseDeadClaims(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable("games")
    .set({ lease_owner: null, lease_until: null })
    .where("lease_owner", "is not", null)
    .execute();
}
