/** The messages between the server's thread and the SQLite thread (sqlite-worker.ts). */

export interface WorkerData {
  /** The database file. */
  file: string;
  /** A file URL that better-sqlite3 resolves from (the thread's own code is evaluated, not a file). */
  base: string;
  /**
   * The thread is the checkpointer (see SqliteThread's #checkpoint): its own connection copies the
   * write-ahead log into the database file, beside the writing connection, each time it is asked.
   */
  checkpointer?: true;
  /** The writing thread: how many of its commits between two checkpoints (CHECKPOINT_EVERY). */
  checkpointEvery?: number;
}

/**
 * A query (its SQL text and parameters, as Kysely compiled it), or the order to close the database.
 * `read`: a select outside any transaction, run on the thread's second connection (it sees what was
 * committed, as a query on another PostgreSQL connection does). `begin`: open a transaction first (on
 * the writing connection), saving a round trip of its own. `relaxed`: a write outside a transaction
 * committed without waiting for the disk (synchronous = NORMAL for this statement only).
 */
/** One statement of a message that carries several; `rows`: its rows are answered (a select, or a write with `returning`). */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
  rows?: true;
}

export interface Query {
  sql: string;
  parameters: readonly unknown[];
  read?: true;
  begin?: true;
  relaxed?: true;
  /**
   * Writes of the transaction whose answers nobody reads (inserts without `returning`), run in order
   * before this statement, in its round trip (see ThreadSession): the first that fails answers this
   * message with its error, and neither the rest nor this statement runs.
   */
  before?: readonly { sql: string; parameters: readonly unknown[] }[];
  /**
   * A whole transaction in this one message (see SqliteThread.atomic): this statement (a write with
   * `returning`) in a transaction of its own, then, only if it returned a row, `rest` in order, and
   * the commit; else the rollback. Run when the writing connection has no transaction open (one
   * that is open is another session's, between its messages: the thread runs this after its end).
   */
  atomic?: {
    rest: readonly Statement[];
    /** Committed without waiting for the disk (synchronous = NORMAL for this transaction alone: a claim's). */
    relaxed?: true;
  };
  /**
   * With `read`: selects run right after this one, in the same message, on the same connection (nothing
   * else runs on the thread between them, so they all see the same commit); their rows are `more`.
   */
  reads?: readonly Statement[];
}

export type Request = (Query & { id: number }) | { close: true } | { checkpoint: true };

export interface WorkerError {
  message: string;
  /** SQLite's code, such as SQLITE_CONSTRAINT_UNIQUE or SQLITE_FULL. */
  code?: string;
}

export type Reply =
  | { ready: true }
  | { failed: WorkerError }
  | { closed: true }
  /** The writing connection committed CHECKPOINT_EVERY times since it last said so. */
  | { checkpointDue: true }
  /** The checkpointer's answer: done, or why not (SQLite's message). */
  | { checkpointed: true; reason?: string }
  /** `more`: the rows of a message's further statements that ask for them (Query.atomic's with `rows`, Query.reads'), in order. */
  | { id: number; rows: unknown[]; more?: unknown[][] }
  | { id: number; changes: number; insertId: number }
  | { id: number; error: WorkerError };
