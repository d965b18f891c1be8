import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from "kysely";
import type { DirectQuery } from "./prepared.ts";

/**
 * A query the store makes at every turn, built and compiled by Kysely once instead of at each call:
 * building (immutable nodes, copied at each step) and compiling cost more of the server's CPU than
 * posting the query (a tenth of a turn's, for a dozen queries). The first call builds the query with
 * marks for its arguments and finds each mark among the compiled parameters; later calls put their
 * arguments in those places (the other parameters, constants of the query, stay). A query in which an
 * argument is not a parameter (made part of the SQL text) is built at every call, as before.
 */
export function compiledOnce<A extends unknown[], R>(
  db: Kysely<never>,
  build: (...args: A) => Compilable<R>,
  direct?: DirectQuery,
): CompiledOnce<A, R> {
  let plan: { query: CompiledQuery<R>; slots: number[] } | null | undefined;
  /** The SQL text and parameters for `args`; null when the query must be built at each call. */
  const statement = (...args: A): { sql: string; parameters: unknown[]; query: CompiledQuery<R> } => {
    if (plan === undefined) {
      const marks = args.map((_, i) => `\u0000taleforge-argument-${i}\u0000`);
      const query = build(...(marks as A)).compile();
      const slots = query.parameters.map((p) => (typeof p === "string" ? marks.indexOf(p) : -1));
      plan = marks.every((_, i) => slots.includes(i)) ? { query, slots } : null;
    }
    if (plan === null) {
      const query = build(...args).compile();
      return { sql: query.sql, parameters: [...query.parameters], query };
    }
    const { query, slots } = plan;
    const parameters = slots.map((slot, i) => (slot < 0 ? query.parameters[i] : args[slot]));
    return { sql: query.sql, parameters, query };
  };
  const run = async (...args: A): Promise<R[]> => {
    const { sql, parameters, query } = statement(...args);
    if (plan === null) return (await db.executeQuery(query)).rows;
    // PostgreSQL: straight to the pool (prepared.ts DirectQuery), the same text and parameters.
    if (direct !== undefined) return (await direct(sql, parameters)) as R[];
    return (await db.executeQuery<R>({ ...query, queryId: createQueryId(), parameters })).rows;
  };
  return Object.assign(run, { statement });
}

/**
 * A query compiled once: called, it runs; `statement` gives its SQL text and parameters for the
 * arguments without running it (SQLite: for a message that carries several statements).
 */
export type CompiledOnce<A extends unknown[], R> = ((...args: A) => Promise<R[]>) & {
  statement: (...args: A) => { sql: string; parameters: unknown[] };
};
