/**
 * The SQLite store's own thread (node:worker_threads): it owns the one
 * better-sqlite3 connection and runs the queries the server's thread posts to
 * it, so that SQLite's work (parsing, the B-tree, and above all each commit's
 * fsync) never blocks the event loop that serves HTTP, event streams and
 * turns. The server compiles queries with Kysely and posts their SQL text and
 * parameters (sqlite-thread.ts); this thread answers with rows or an error.
 *
 * It runs compiled from this file alone (sqlite-thread.ts compiles it to
 * CommonJS and keeps the result), so it imports only Node's modules and
 * better-sqlite3 (resolved from the path the server gives it): no engine, no
 * Fastify, nothing else of Taleforge, which keeps the thread small.
 */
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type SqliteDatabase from "better-sqlite3";
import type { Query, Reply, Request, WorkerData } from "./sqlite-protocol.ts";

/** How many prepared statements are kept (the store's queries are a few dozen texts). */
const STATEMENTS = 256;

const data = workerData as WorkerData;
const port = parentPort!;

/** An error as the server's thread sees it: the message and SQLite's code (a unique violation, a full disk...). */
function describe(error: unknown): { message: string; code?: string } {
  const e = error as { message?: unknown; code?: unknown };
  return {
    message: typeof e?.message === "string" ? e.message : String(error),
    ...(typeof e?.code === "string" ? { code: e.code } : {}),
  };
}

/**
 * How long the checkpointer thread stays after its last checkpoint: under a steady load it is asked
 * again every second or two, and starting a thread costs some 30 ms of CPU.
 */
const CHECKPOINTER_IDLE_MS = 5000;

/**
 * The checkpointer (workerData.checkpointer): a connection of its own that copies the write-ahead log
 * into the database file (a PASSIVE checkpoint: it never blocks the writing or the reading
 * connection; the log's pages and then the database file are synced, synchronous = FULL) each time
 * the server's thread asks, and ends its thread when it has not been asked for a while.
 */
function checkpointer(): void {
  let db: SqliteDatabase.Database;
  try {
    const Database = createRequire(data.base)("better-sqlite3") as typeof SqliteDatabase;
    db = new Database(data.file);
    db.pragma("synchronous = FULL");
    db.pragma("busy_timeout = 5000");
  } catch (error) {
    port.postMessage({ checkpointed: true, reason: describe(error).message } satisfies Reply);
    port.close();
    return;
  }
  let idle: NodeJS.Timeout | undefined;
  const stop = () => {
    db.close();
    port.close();
  };
  port.on("message", (request: Request) => {
    clearTimeout(idle);
    if ("close" in request) return stop();
    let error: string | undefined;
    try {
      db.pragma("wal_checkpoint(PASSIVE)");
    } catch (failure) {
      error = describe(failure).message;
    }
    port.postMessage({
      checkpointed: true,
      ...(error !== undefined ? { reason: error } : {}),
    } satisfies Reply);
    idle = setTimeout(stop, CHECKPOINTER_IDLE_MS);
  });
}

/**
 * The SQL functions that deflate and inflate a turn row's large texts (store/packed.ts): here, so that
 * the server's thread neither spends its event loop on zlib nor posts zlib's buffers (each a copy of
 * the 16 KB zlib allocated, whatever the output's size). Raw deflate at level 1: most of the saving
 * (JSON repeats itself) for a fraction of the default level's CPU. A text written before rows were
 * deflated is not bytes, and reads as it is.
 */
function definePacking(db: SqliteDatabase.Database): void {
  db.function("tf_deflate", { deterministic: true }, (text: unknown) =>
    typeof text === "string" ? deflateRawSync(text, { level: 1 }) : text,
  );
  db.function("tf_inflate", { deterministic: true }, (value: unknown) =>
    value instanceof Uint8Array ? inflateRawSync(value).toString("utf8") : value,
  );
}

/** The writing connection: every write, every transaction. */
let sqlite: SqliteDatabase.Database;
/** The reading connection: selects outside transactions (WAL lets it read while a write is open). */
let reader: SqliteDatabase.Database;
if (data.checkpointer) checkpointer();
else
  try {
    const Database = createRequire(data.base)("better-sqlite3") as typeof SqliteDatabase;
    sqlite = new Database(data.file);
    sqlite.pragma("journal_mode = WAL");
    // FULL: a committed turn survives a power cut, not only a process crash.
    sqlite.pragma("synchronous = FULL");
    // The checkpoints are the checkpointer thread's (see checkpointer()), off this connection: run here,
    // at the commit that filled the log past 1,000 pages (SQLite's default), each one wrote some 4 MB
    // into the database file and synced it, 25 ms on average and over 100 ms on a busy disk, during
    // which every query of the server waited. SQLite's own stays as a backstop, at 40 MB of log, for a
    // checkpointer that cannot keep up.
    sqlite.pragma("wal_autocheckpoint = 10000");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    reader = new Database(data.file, { readonly: true });
    reader.pragma("busy_timeout = 5000");
    definePacking(sqlite);
    definePacking(reader);
    port.postMessage({ ready: true } satisfies Reply);
  } catch (error) {
    // Not rethrown: the thread's 'error' event would race this reply, and a SqliteError loses its message
    // on the way (it is not one of the errors a thread can clone). Closing the port ends the thread.
    port.postMessage({ failed: describe(error) } satisfies Reply);
    port.close();
  }

/**
 * Each SQL text prepared once and kept (an LRU of STATEMENTS): preparing (parsing, planning) costs more
 * than running most of the server's queries. Queries run one at a time and are read whole, so a kept
 * statement is never busy when reused.
 */
const keptWrites = new Map<string, SqliteDatabase.Statement>();
const keptReads = new Map<string, SqliteDatabase.Statement>();
function prepare(text: string, read: boolean): SqliteDatabase.Statement {
  const kept = read ? keptReads : keptWrites;
  let statement = kept.get(text);
  if (statement !== undefined) kept.delete(text);
  else statement = (read ? reader : sqlite).prepare(text);
  kept.set(text, statement);
  if (kept.size > STATEMENTS) kept.delete(kept.keys().next().value!);
  return statement;
}

/**
 * The connection a select outside transactions runs on: the writing one while it has no transaction
 * open, else the reading one. Both see what was last committed then (queries run here one at a
 * time), but a connection's page cache is dropped whenever another connection committed since its
 * last read: the reading connection read the pages of every select after a commit again (some 3 % of
 * this thread's CPU at the serve benchmark), the writing one keeps its cache over its own commits.
 */
function onReader(read: boolean): boolean {
  return read && sqlite.inTransaction;
}

/** The pragmas of a relaxed write, prepared once (better-sqlite3's `pragma` prepares at each call). */
let relaxing: { relax: SqliteDatabase.Statement; restore: SqliteDatabase.Statement } | undefined;
function relaxOnce(): NonNullable<typeof relaxing> {
  relaxing ??= {
    relax: sqlite.prepare("pragma synchronous = NORMAL"),
    restore: sqlite.prepare("pragma synchronous = FULL"),
  };
  return relaxing;
}

/** Commits of the writing connection since the server's thread was last told a checkpoint is due. */
let commits = 0;

/**
 * Whole transactions (Query.atomic) that arrived while another session's transaction was open on the
 * writing connection: run, in order, as soon as it ends.
 */
const atomics: (Query & { id: number })[] = [];

/**
 * A whole transaction: its first statement, then (if that returned a row) the rest and the commit; the
 * rows of those of the rest that ask for them (`rows`) in `then`. Relaxed: committed without waiting for
 * the disk, as a relaxed write is.
 */
function runAtomic(request: Query & { id: number; atomic: NonNullable<Query["atomic"]> }): Reply {
  const relaxed = request.atomic.relaxed === true;
  try {
    if (relaxed) relaxOnce().relax.run();
    // In the try: a begin that fails (a disk error) is this message's error, not the thread's end.
    sqlite.exec("begin");
    const rows = prepare(request.sql, false).all(request.parameters) as unknown[];
    if (rows.length === 0) {
      sqlite.exec("rollback");
      return { id: request.id, rows };
    }
    const more: unknown[][] = [];
    for (const next of request.atomic.rest) {
      const statement = prepare(next.sql, false);
      if (next.rows) more.push(statement.all(next.parameters) as unknown[]);
      else statement.run(next.parameters);
    }
    sqlite.exec("commit");
    return more.length === 0 ? { id: request.id, rows } : { id: request.id, rows, more };
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("rollback");
    return { id: request.id, error: describe(error) };
  } finally {
    if (relaxed) relaxOnce().restore.run();
  }
}

/** Runs the whole transactions that waited for the writing connection, while it has none open. */
function runWaitingAtomics(): void {
  while (atomics.length > 0 && !sqlite.inTransaction) {
    const request = atomics.shift()!;
    const reply = runAtomic(request as Query & { id: number; atomic: NonNullable<Query["atomic"]> });
    port.postMessage(reply);
    if (!("error" in reply)) countCommit();
  }
}

/** Counts a commit of the writing connection; every CHECKPOINT_EVERY, tells the server's thread. */
function countCommit(): void {
  if (++commits < (data.checkpointEvery ?? 64)) return;
  commits = 0;
  port.postMessage({ checkpointDue: true } satisfies Reply);
}

if (!data.checkpointer)
  port.on("message", (request: Request) => {
    if ("checkpoint" in request) return;
    if ("close" in request) {
      for (const waiting of atomics.splice(0))
        port.postMessage({ id: waiting.id, error: { message: "the store closed" } } satisfies Reply);
      keptWrites.clear();
      keptReads.clear();
      if (sqlite.inTransaction) sqlite.exec("rollback");
      reader.close();
      sqlite.close();
      port.postMessage({ closed: true } satisfies Reply);
      port.close();
      return;
    }
    if (request.atomic !== undefined) {
      if (sqlite.inTransaction) atomics.push(request);
      else {
        atomics.push(request);
        runWaitingAtomics();
      }
      return;
    }
    let reply: Reply;
    try {
      if (request.begin) sqlite.exec("begin");
      for (const write of request.before ?? []) prepare(write.sql, false).run(write.parameters);
      const statement = prepare(request.sql, onReader(request.read === true));
      if (statement.reader) {
        const rows = statement.all(request.parameters) as unknown[];
        const reads = request.reads;
        reply =
          reads === undefined
            ? { id: request.id, rows }
            : {
                id: request.id,
                rows,
                more: reads.map(
                  (next) =>
                    prepare(next.sql, onReader(request.read === true)).all(next.parameters) as unknown[],
                ),
              };
      } else {
        if (request.relaxed) relaxOnce().relax.run();
        try {
          const { changes, lastInsertRowid } = statement.run(request.parameters);
          reply = { id: request.id, changes: Number(changes), insertId: Number(lastInsertRowid) };
        } finally {
          if (request.relaxed) relaxOnce().restore.run();
        }
      }
    } catch (error) {
      reply = { id: request.id, error: describe(error) };
    }
    port.postMessage(reply);
    // A write outside a transaction commits by itself; a transaction at its `commit`.
    if (!request.read && !sqlite.inTransaction && !("error" in reply)) countCommit();
    runWaitingAtomics();
  });
