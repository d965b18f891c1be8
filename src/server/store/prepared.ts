import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";

/** How many distinct SQL texts get a prepared statement; the rest run unprepared, as before. */
const MAX_PREPARED = 200;
/** Longer texts (a multi-row insert of many rows) are rare and run unprepared. */
const MAX_TEXT = 4000;

/**
 * The PostgreSQL pool with every query the store repeats run as a named prepared statement
 * (node-postgres's `name`): PostgreSQL parses and analyses each text once per connection instead of
 * at every call (measured: about 0.1 ms of the database's CPU saved per query, a third of a simple
 * select's cost; a turn makes some twenty). The same text always gets the same name, so each
 * connection prepares it at its first use. Bounded: at most MAX_PREPARED texts (the store's queries
 * are a few dozen; multi-row inserts differ by their row count) and none longer than MAX_TEXT.
 * Statements other than select, insert, update, delete and with (`begin`, `commit`, the migrations' DDL)
 * run as before.
 *
 * A prepared `select *` fails with "cached plan must not change result type" once another process
 * changed the table's columns (a newer server's migration during a rolling upgrade): the text then
 * gets a new name (prepared again, with the new columns) and the query is run again, unless it was
 * inside a transaction, which that failure has aborted: the transaction fails, and the caller's
 * next attempt uses the new name.
 */
export function preparingPool(pool: pg.Pool, Query: typeof pg.Query): PostgresPool & { direct: DirectQuery } {
  /**
   * A named query as pg's own Query, built from its text (pg copies a query given as an object with
   * Object.defineProperties, which leaves the copy a slow dictionary object: a few µs a query).
   */
  const named = (name: string, text: string, values: unknown[]): NamedQuery => {
    const query = new Query(text, values) as NamedQuery;
    query.name = name;
    return query;
  };
  const names = new Map<string, string>();
  let made = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined) return known;
    if (
      names.size >= MAX_PREPARED ||
      text.length > MAX_TEXT ||
      !/^\s*(select|insert|update|delete|with)\b/i.test(text)
    )
      return undefined;
    const name = `tf_${made++}`;
    names.set(text, name);
    return name;
  };
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const rename = (text: string) => {
    if (names.has(text)) names.set(text, `tf_${made++}`);
  };
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      // One wrapper per connection, as Kysely keeps one connection object per client it is given.
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
    async direct(text, values) {
      const run = () => {
        const name = nameOf(text);
        // The pool answers a promise for a Query too (pg-pool passes its callback to the client).
        return name === undefined
          ? pool.query(text, values)
          : (pool.query(named(name, text, values)) as unknown as Promise<pg.QueryResult>);
      };
      try {
        return (await run()).rows;
      } catch (error) {
        // Outside any transaction: a stale plan is prepared again and the query run again.
        if (!isStalePlan(error)) throw error;
        rename(text);
        return (await run()).rows;
      }
    },
  };

  function wrap(client: pg.PoolClient): PostgresPoolClient {
    let inTransaction = false;
    const run = (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      const name = nameOf(text);
      if (name === undefined) return client.query(text, values);
      const query = named(name, text, values);
      return new Promise((resolve, reject) => {
        query.callback = (error: Error | null, result?: pg.QueryResult) =>
          error ? reject(error) : resolve(result!);
        client.query(query);
      });
    };
    const query = async (text: string, parameters?: ReadonlyArray<unknown>) => {
      const values = [...(parameters ?? [])];
      const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
      if (verb === "begin" || verb === "start") inTransaction = true;
      else if (verb === "commit" || verb === "rollback") inTransaction = false;
      try {
        return await run(text, values);
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        rename(text);
        if (inTransaction) throw error;
        return await run(text, values);
      }
    };
    // Kysely calls query(sql, parameters) (a cursor, for streaming, is not used by the store) and
    // release(discard): a connection whose rollback failed is discarded, not reused.
    return {
      query,
      release: (discard?: boolean) => client.release(discard),
    } as unknown as PostgresPoolClient;
  }
}

/**
 * One statement on a connection of the pool, prepared as above, outside Kysely: its own transaction
 * (autocommit). For the store's hottest queries (the reads every turn makes, a step's commit and a
 * submission each as one statement): Kysely's path to the pool (its executor, connection provider
 * and driver, each a promise or two) cost more of the main thread than the query's own round trip
 * (measured: runMicrotasks was 0.46 ms a turn on PostgreSQL, 0.05 on SQLite).
 */
export type DirectQuery = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** pg's Query with the fields its constructor sets from a query's object (not in its type declarations). */
type NamedQuery = pg.Query & {
  name: string;
  callback?: (error: Error | null, result?: pg.QueryResult) => void;
};

/** PostgreSQL's refusal to run a prepared statement whose table's columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "0A000" && /cached plan must not change result type/.test(e.message ?? "");
}
