import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  InsertQueryNode,
  type Kysely,
  type KyselyPlugin,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { ApiError } from "../errors.ts";
import type { Query, Reply, Request, Statement, WorkerData, WorkerError } from "./sqlite-protocol.ts";

/**
 * The SQLite store's connection, run in a thread of its own (sqlite-worker.ts)
 * and seen by Kysely as a dialect. better-sqlite3 is synchronous: on the
 * server's thread every query, and every commit's fsync, stopped the event
 * loop, so a submission was handled whole before anything else ran and the
 * 49 other games' steps, the HTTP requests and the event streams waited
 * behind it. Here a query is a message to the thread and its answer a message
 * back: the loop runs other work meanwhile, as it does with PostgreSQL.
 *
 * There is still one connection: queries run one at a time, and a transaction
 * (or `db.connection()`) holds the connection from its first statement to its
 * last, as Kysely's own SQLite driver does.
 */

const SOURCE = fileURLToPath(new URL("./sqlite-worker.ts", import.meta.url));
const CACHE = join(dirname(SOURCE), "..", "..", "..", "node_modules", ".cache", "taleforge-sqlite");
/** The thread's code as the package build writes it into dist/ (scripts/build.ts). */
export const SQLITE_WORKER = "sqlite-worker.cjs";
/**
 * Where the package build wrote the thread's code (scripts/build.ts defines it, relative to this
 * source file): the installed `taleforge serve` starts the thread from it, and neither loads esbuild
 * nor writes under node_modules. Undefined when running the sources.
 */
declare const __TF_SQLITE_WORKER__: string | undefined;

/** The thread's TypeScript compiled to CommonJS (esbuild, loaded only here). */
export function compileWorker(): string {
  const { transformSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  return transformSync(readFileSync(SOURCE, "utf8"), { loader: "ts", format: "cjs", target: "node20" }).code;
}

/**
 * The thread's code: the build's file in dist/; from the sources, its TypeScript compiled to CommonJS
 * by esbuild, kept under node_modules/.cache by the digest of the source (compiling starts esbuild, a
 * few hundred ms on a busy machine: later starts skip it), and once per process. A file when the
 * cache can be written, else the code to evaluate.
 */
let compiled: { file: string } | { code: string } | undefined;
export function workerCode(): { file: string } | { code: string } {
  if (compiled) return compiled;
  if (typeof __TF_SQLITE_WORKER__ === "string") {
    const built = fileURLToPath(new URL(__TF_SQLITE_WORKER__, import.meta.url));
    if (existsSync(built)) {
      compiled = { file: built };
      return compiled;
    }
  }
  const source = readFileSync(SOURCE, "utf8");
  const digest = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const file = join(CACHE, `worker-${digest}.cjs`);
  if (existsSync(file)) {
    compiled = { file };
    return compiled;
  }
  const code = compileWorker();
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written aside and renamed, so that another process never starts a half-written file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
    compiled = { file };
  } catch {
    compiled = { code };
  }
  return compiled;
}

/** How many commits of the writing connection between two checkpoints (some 12 pages of log each). */
export const CHECKPOINT_EVERY = 64;

type Pending = {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
  /** A shared select's key in #reads. */
  shared?: string;
};

/** The thread and its one connection: `query` posts one statement and resolves with its answer. */
export class SqliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  /** Set once the thread stopped (closed or crashed): every query after fails with it at once. */
  #stopped: ApiError | null = null;
  #closing: Promise<void> | null = null;
  readonly #exited: Promise<void>;
  /** The writing connection's lock: a transaction, a write or a raw statement holds it (see ThreadSession). */
  readonly writer = new ConnectionMutex();
  /** Selects on their way, by SQL and parameters (see #read). */
  readonly #reads = new Map<string, Promise<QueryResult<unknown>>>();
  /** The checkpointer thread while it lives (see #checkpoint), whether it is checkpointing, and whether it is asked again. */
  #checkpointer: Worker | null = null;
  #checkpointing = false;
  #checkpointAgain = false;

  private constructor(
    readonly file: string,
    worker: Worker,
  ) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
  }

  /** Starts the thread and opens `file` there (WAL, synchronous FULL, foreign keys, busy timeout). */
  static async open(file: string): Promise<SqliteThread> {
    const data: WorkerData = { file, base: import.meta.url, checkpointEvery: CHECKPOINT_EVERY };
    const code = workerCode();
    const worker = new Worker("file" in code ? code.file : code.code, {
      eval: !("file" in code),
      workerData: data,
      // Not the server's own flags (`--import tsx` in development would load the TypeScript loader here too).
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    const thread = new SqliteThread(file, worker);
    await new Promise<void>((resolve, reject) => {
      let opened = false;
      worker.on("message", (reply: Reply) => {
        if ("ready" in reply) {
          opened = true;
          resolve();
        } else if ("checkpointDue" in reply) thread.#checkpoint();
        else if ("failed" in reply) reject(unreadable(file, reply.failed));
        else thread.#answer(reply);
      });
      // Before the thread has opened, its 'failed' reply says why; an exit or error event may overtake
      // it, so they wait one turn of the loop for it (the promise keeps the first reason).
      const failOpen = (reason: string) => setImmediate(() => reject(unreadable(file, { message: reason })));
      worker.on("error", (error) => {
        if (!opened) failOpen(error?.message ?? String(error));
        thread.#stop(new ApiError("store/stopped", "thread-failed", { reason: error.message }));
      });
      worker.on("exit", (code) => {
        if (!opened) failOpen(`its thread exited (code ${code})`);
        thread.#stop(
          new ApiError(
            ...(thread.#closing
              ? (["store/stopped", "closed"] as const)
              : (["store/stopped", "thread-exited", { code }] as const)),
          ),
        );
      });
    });
    // Idle, the thread does not keep the process alive; a query in flight does (see #post).
    worker.unref();
    return thread;
  }

  query(
    sql: string,
    parameters: readonly unknown[],
    how: { read?: true; begin?: true; relaxed?: true; before?: Query["before"] } = {},
  ): Promise<QueryResult<unknown>> {
    if (how.read) return this.#read(sql, parameters);
    return this.#run({ sql, parameters, ...how });
  }

  /**
   * A whole transaction in one message (Query.atomic): `first` (a write with `returning`), then, if it
   * returned a row, `then` and the commit; its rows ([]: nothing was written). It takes no turn at the
   * writing connection's lock: a transaction of several messages held the connection from its first
   * message to its commit's answer, and each of its answers waited for this thread's event loop,
   * busy with a step for milliseconds at a time, while every other write queued (issue 38: a round
   * of 50 submissions took 270 ms to be answered on SQLite, 57 ms on PostgreSQL). SQLite's thread
   * runs it between transactions, never inside another session's.
   */
  async atomic(
    first: { sql: string; parameters: readonly unknown[] },
    then: readonly Statement[],
  ): Promise<unknown[]> {
    return (await this.transaction(first, then)).rows;
  }

  /**
   * atomic, answering also the rows of the statements of `then` that ask for them (`rows`), in order
   * (`more`; [] when the first returned no row). `relaxed`: committed without waiting for the disk, as
   * a relaxed write (a step's claim, see Store.claimWrite).
   */
  async transaction(
    first: { sql: string; parameters: readonly unknown[] },
    then: readonly Statement[],
    how: { relaxed?: true } = {},
  ): Promise<{ rows: unknown[]; more: unknown[][] }> {
    const reply = await this.#post({
      sql: first.sql,
      parameters: first.parameters,
      atomic: {
        // Only the text and parameters: a compiled query also holds Kysely's tree of it, with every
        // value again (a turn row's texts), which the message would copy.
        rest: then.map((s) =>
          s.rows
            ? { sql: s.sql, parameters: s.parameters, rows: true }
            : { sql: s.sql, parameters: s.parameters },
        ),
        ...(how.relaxed ? { relaxed: true as const } : {}),
      },
    });
    if ("error" in reply) throw queryError(reply.error);
    if (!("rows" in reply)) throw new Error("the SQLite thread answered a transaction with no rows");
    return { rows: reply.rows, more: reply.more ?? [] };
  }

  /**
   * Selects outside transactions in one message: `first`, then `reads`, run one after the other on the
   * same connection with nothing between them (they see the same commit). Their rows, in order.
   */
  async reads(
    first: { sql: string; parameters: readonly unknown[] },
    reads: readonly { sql: string; parameters: readonly unknown[] }[],
  ): Promise<unknown[][]> {
    const reply = await this.#post({
      sql: first.sql,
      parameters: first.parameters,
      read: true,
      reads: reads.map((s) => ({ sql: s.sql, parameters: s.parameters })),
    });
    if ("error" in reply) throw queryError(reply.error);
    if (!("rows" in reply)) throw new Error("the SQLite thread answered selects with no rows");
    return [reply.rows, ...(reply.more ?? [])];
  }

  /**
   * A select outside transactions. The same select already on its way (the same SQL and parameters:
   * a hundred event streams of one game woken by one turn all read its new events) is not posted
   * again: each caller gets its own copy of that one answer's rows.
   */
  #read(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    const key = `${sql}\u0000${JSON.stringify(parameters)}`;
    let shared = this.#reads.get(key);
    if (shared === undefined) {
      // Forgotten as soon as its answer arrives (#answer), before any later reply: a select posted
      // after a commit was answered never shares an answer read before it.
      shared = this.#run({ sql, parameters, read: true }, key);
      this.#reads.set(key, shared);
    }
    return shared.then((result) => ({ rows: result.rows.map((row) => ({ ...(row as object) })) }));
  }

  #run(query: Query, shared?: string): Promise<QueryResult<unknown>> {
    return this.#post(query, shared).then((reply) => {
      if ("error" in reply) throw queryError(reply.error);
      if ("rows" in reply) return { rows: reply.rows };
      if ("changes" in reply)
        return { rows: [], numAffectedRows: BigInt(reply.changes), insertId: BigInt(reply.insertId) };
      throw new Error("the SQLite thread answered a query with no result");
    });
  }

  /**
   * Asks the checkpointer thread (started when needed, see sqlite-worker.ts) to copy the write-ahead
   * log into the database file. The writing thread asks every CHECKPOINT_EVERY commits, instead of
   * checkpointing itself at the commit that fills the log: there it stopped every query of the
   * server while it wrote and synced some 4 MB. One checkpoint at a time; asked meanwhile, it runs
   * once more after.
   */
  #checkpoint(): void {
    if (this.#stopped || this.#closing) return;
    if (this.#checkpointing) {
      this.#checkpointAgain = true;
      return;
    }
    this.#checkpointing = true;
    if (this.#checkpointer === null) {
      const code = workerCode();
      const data: WorkerData = { file: this.file, base: import.meta.url, checkpointer: true };
      const worker = new Worker("file" in code ? code.file : code.code, {
        eval: !("file" in code),
        workerData: data,
        execArgv: [],
        stdout: false,
        stderr: false,
      });
      worker.unref();
      worker.on("message", (reply: Reply) => {
        if (!("checkpointed" in reply)) return;
        this.#checkpointing = false;
        if (this.#checkpointAgain) {
          this.#checkpointAgain = false;
          this.#checkpoint();
        }
      });
      // A checkpoint that fails is left to the next one (and to SQLite's own, at 40 MB of log).
      worker.on("error", () => {});
      worker.on("exit", () => {
        if (this.#checkpointer !== worker) return;
        this.#checkpointer = null;
        // Asked as it ended (idle): asked again, of a new thread.
        const lost = this.#checkpointing;
        this.#checkpointing = false;
        if (lost) this.#checkpoint();
      });
      this.#checkpointer = worker;
    }
    this.#checkpointer.postMessage({ checkpoint: true } satisfies Request);
  }

  /** Closes the database (after the queries already posted) and ends the thread; a transaction left open is rolled back. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const checkpointer = this.#checkpointer;
      if (checkpointer !== null) {
        // After the checkpoint it may be running.
        const ended = new Promise((resolve) => checkpointer.once("exit", resolve));
        checkpointer.postMessage({ close: true } satisfies Request);
        const timer = setTimeout(() => void checkpointer.terminate(), 10_000);
        await ended;
        clearTimeout(timer);
      }
      if (!this.#stopped) {
        this.#worker.ref();
        this.#worker.postMessage({ close: true } satisfies Request);
        const timer = setTimeout(() => void this.#worker.terminate(), 10_000);
        await this.#exited;
        clearTimeout(timer);
      }
    })();
    return this.#closing;
  }

  /** Ends the thread at once, as a crash would (tests). */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }

  #post(query: Query, shared?: string): Promise<Reply> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#closing) return Promise.reject(new ApiError("store/stopped", "closed"));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject, ...(shared !== undefined ? { shared } : {}) });
      this.#worker.postMessage({ id, ...query } satisfies Request);
    });
  }

  #answer(reply: Reply): void {
    if (!("id" in reply)) return;
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (pending?.shared !== undefined) this.#reads.delete(pending.shared);
    if (this.#pending.size === 0 && !this.#closing) this.#worker.unref();
    pending?.resolve(reply);
  }

  #stop(error: ApiError): void {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
    this.#reads.clear();
  }
}

function unreadable(file: string, error: WorkerError): ApiError {
  return new ApiError(
    "store/unreadable",
    "cannot-open",
    { file, reason: error.message },
    { file, ...(error.code !== undefined ? { sqlite: error.code } : {}) },
  );
}

/** SQLite's error as the server's code expects it (its `code` tells a unique violation or a busy file apart). */
function queryError(error: WorkerError): Error {
  if (error.code === "SQLITE_FULL")
    return new ApiError("store/full", "disk-full", {}, { sqlite: error.code });
  return Object.assign(new Error(error.message), { name: "SqliteError", code: error.code });
}

/**
 * Kysely's SQLite dialect (its SQL, adapter and introspector) over the connection of a SqliteThread.
 * `relaxed`: each write outside a transaction is committed without waiting for the disk (the store's
 * claims, see Store.claimWrite), in the one round trip of the write itself. `urgent`: its writes and
 * transactions take the writing connection before the ordinary ones waiting for it (see ConnectionMutex).
 */
export class SqliteThreadDialect implements Dialect {
  constructor(
    private readonly thread: SqliteThread,
    private readonly options: { relaxed?: boolean; urgent?: boolean } = {},
  ) {}
  createDriver(): Driver {
    return new ThreadDriver(this.thread, this.options.relaxed === true, this.options.urgent === true);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely asks for a connection per query and per transaction. Each gets a session over the thread's
 * one writing connection, taken only when needed: a select outside a transaction goes to the thread's
 * reading connection at once (selects from many requests are posted together, never waiting for each
 * other's round trips); a transaction, a write or a raw statement (a pragma) takes the writing
 * connection and holds it until the session ends, as Kysely's own SQLite driver holds its one connection.
 */
class ThreadDriver implements Driver {
  constructor(
    private readonly thread: SqliteThread,
    private readonly relaxed: boolean,
    private readonly urgent: boolean,
  ) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadSession(this.thread, this.relaxed, this.urgent);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadSession).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as ThreadSession).end();
  }
  async destroy(): Promise<void> {
    await this.thread.close();
  }
}

/** The writes marked with `unanswered`, by the query Kysely compiles (its root node). */
const UNANSWERED = new WeakSet<RootOperationNode>();

/**
 * A Kysely plugin for a write inside a transaction whose answer (rows affected) its caller never
 * reads, such as a step's commit moving its branch's name: on SQLite's thread it goes with the
 * transaction's next statement, as its inserts do (ThreadSession), one round trip less inside the
 * transaction; its answer says nothing of rows affected. PostgreSQL runs it as before.
 */
export const unanswered: KyselyPlugin = {
  transformQuery(args) {
    UNANSWERED.add(args.node);
    return args.node;
  },
  async transformResult(args) {
    return args.result;
  },
};

class ThreadSession implements DatabaseConnection {
  #writing = false;
  /** `begin` not sent yet: it goes with the transaction's first statement (one round trip less). */
  #beginDue = false;
  #transaction = false;
  /**
   * The transaction's inserts not sent yet: nothing reads their answers, so they go with its next
   * statement (its `commit` at the latest), in that one round trip: a turn's commit (the turn row,
   * its log entries, its events, the commit) is then one message to the thread, not four. A failing
   * insert fails that later statement instead, with its own error, inside the same transaction,
   * which then rolls back as it would have; the database sees the same statements in the same order.
   * Their answer here says nothing of rows affected (no caller of the store asks it of an insert
   * inside a transaction).
   */
  #deferred: { sql: string; parameters: readonly unknown[] }[] = [];
  constructor(
    private readonly thread: SqliteThread,
    private readonly relaxed: boolean,
    private readonly urgent: boolean,
  ) {}

  async begin(): Promise<void> {
    await this.#write();
    this.#beginDue = true;
    this.#transaction = true;
    this.#deferred = [];
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#writing && SelectQueryNode.is(query.query))
      return this.thread.query(query.sql, query.parameters, { read: true }) as Promise<QueryResult<R>>;
    await this.#write();
    if (
      this.#transaction &&
      ((InsertQueryNode.is(query.query) && query.query.returning === undefined) ||
        UNANSWERED.has(query.query))
    ) {
      this.#deferred.push({ sql: query.sql, parameters: query.parameters });
      return { rows: [] };
    }
    const ending = query.sql === "commit" || query.sql === "rollback";
    // A rollback drops the inserts not sent: never run is the same as undone.
    const deferred = query.sql === "rollback" ? [] : this.#deferred;
    this.#deferred = [];
    const before = deferred.length > 0 ? { before: deferred } : {};
    if (this.#beginDue) {
      // A transaction with nothing sent yet: a rollback has nothing to undo, a commit of no statement nothing to do.
      if (ending && deferred.length === 0) {
        this.#beginDue = false;
        this.#transaction = false;
        return { rows: [] };
      }
      this.#beginDue = false;
      if (ending) this.#transaction = false;
      return this.thread.query(query.sql, query.parameters, { begin: true, ...before }) as Promise<
        QueryResult<R>
      >;
    }
    if (ending) this.#transaction = false;
    return this.thread.query(query.sql, query.parameters, {
      ...(this.relaxed && !this.#transaction ? { relaxed: true as const } : {}),
      ...before,
    }) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // The store reads every result whole; a stream is the whole result at once.
    yield await this.executeQuery<R>(query);
  }

  end(): void {
    this.#deferred = [];
    if (this.#writing) this.thread.writer.unlock();
    this.#writing = false;
  }

  async #write(): Promise<void> {
    if (this.#writing) return;
    await this.thread.writer.lock(this.urgent);
    this.#writing = true;
  }
}

/**
 * The writing connection's lock: first come, first served, except that an urgent session (a step's
 * claim or commit) goes before the ordinary ones waiting. A step holds one of the process's few step
 * slots (--max-steps) from its claim to its commit; the 50 submissions that arrive with a round of
 * turns each hold the connection for a transaction and its fsync, and a step's commit queued behind
 * all of them held its slot, and every step queued for that slot, as long.
 */
class ConnectionMutex {
  #held = false;
  readonly #urgent: (() => void)[] = [];
  readonly #ordinary: (() => void)[] = [];
  lock(urgent = false): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.#urgent : this.#ordinary).push(resolve));
  }
  /** Hands the connection to the next session waiting (it stays held), or frees it. */
  unlock(): void {
    const next = this.#urgent.shift() ?? this.#ordinary.shift();
    if (next) next();
    else this.#held = false;
  }
}
