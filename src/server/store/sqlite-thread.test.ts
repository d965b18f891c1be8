import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Generated, Kysely, sql } from "kysely";
import { ApiError } from "../errors.ts";
import { openStore } from "./open.ts";
import { CHECKPOINT_EVERY, SqliteThread, SqliteThreadDialect, unanswered } from "./sqlite-thread.ts";

/**
 * The SQLite store's connection in its own thread, seen through Kysely: queries, transactions,
 * errors with SQLite's codes, and what happens when the thread stops (closed or crashed): a clear
 * error at once, never a query left waiting.
 */

interface Db {
  items: { id: Generated<number>; name: string; size: number };
}

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), "taleforge-sqlite-thread-"));
  folders.push(made);
  return made;
}
after(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

async function open(file = join(folder(), "t.sqlite")) {
  const thread = await SqliteThread.open(file);
  const db = new Kysely<Db>({ dialect: new SqliteThreadDialect(thread) });
  await sql`create table if not exists items (id integer primary key, name text not null unique, size integer not null)`.execute(
    db,
  );
  return { thread, db, file };
}

/** Fails instead of hanging when `promise` does not settle within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const names = (db: Kysely<Db>) =>
  db
    .selectFrom("items")
    .select("name")
    .orderBy("id")
    .execute()
    .then((rows) => rows.map((r) => r.name));

describe("SQLite thread: queries and transactions", () => {
  it("runs inserts, updates and selects with their counts and rows", async () => {
    const { db } = await open();
    const inserted = await db.insertInto("items").values({ name: "a", size: 1 }).executeTakeFirst();
    assert.equal(inserted.insertId, 1n);
    await db
      .insertInto("items")
      .values([
        { name: "b", size: 2 },
        { name: "c", size: 3 },
      ])
      .execute();
    const updated = await db.updateTable("items").set({ size: 10 }).where("size", ">=", 2).executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 2n);
    assert.deepEqual(await db.selectFrom("items").select(["name", "size"]).orderBy("id").execute(), [
      { name: "a", size: 1 },
      { name: "b", size: 10 },
      { name: "c", size: 10 },
    ]);
    // Many selects at once (they are posted together) each get their own answer.
    const sizes = await Promise.all(
      ["a", "b", "c", "a"].map((n) =>
        db.selectFrom("items").select("size").where("name", "=", n).executeTakeFirstOrThrow(),
      ),
    );
    assert.deepEqual(
      sizes.map((s) => s.size),
      [1, 10, 10, 1],
    );
    // The two identical selects shared one answer, but each caller has its own rows.
    sizes[0]!.size = 99;
    assert.equal(sizes[3]!.size, 1);
    await db.destroy();
  });

  it("commits a transaction whole, and a select outside it sees its rows only after the commit", async () => {
    const { db } = await open();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted: () => void = () => {};
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ name: "x", size: 1 }).execute();
      await trx.insertInto("items").values({ name: "y", size: 2 }).execute();
      assert.deepEqual(await names(trx), ["x", "y"], "the transaction sees its own rows");
      inserted();
      await gate;
    });
    await insertedYet;
    assert.deepEqual(await names(db), [], "nothing is visible before the commit");
    release();
    await transaction;
    assert.deepEqual(await names(db), ["x", "y"]);
    await db.destroy();
  });

  it("rolls a transaction back when its callback throws", async () => {
    const { db } = await open();
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("items").values({ name: "x", size: 1 }).execute();
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    assert.deepEqual(await names(db), []);
    // A transaction that ends before its first statement is fine too.
    await assert.rejects(
      db.transaction().execute(async () => {
        throw new Error("before anything");
      }),
      /before anything/,
    );
    await db.insertInto("items").values({ name: "after", size: 1 }).execute();
    assert.deepEqual(await names(db), ["after"], "the connection is usable after a rollback");
    await db.destroy();
  });

  it("answers a failing statement with SQLite's code, and its transaction rolls back", async () => {
    const { db } = await open();
    await db.insertInto("items").values({ name: "taken", size: 1 }).execute();
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("items").values({ name: "fresh", size: 1 }).execute();
        await trx.insertInto("items").values({ name: "taken", size: 2 }).execute();
      })
      .then(
        () => null,
        (error: unknown) => error as { code?: string; message: string },
      );
    assert.ok(failure, "the duplicate fails");
    assert.equal(failure.code, "SQLITE_CONSTRAINT_UNIQUE");
    assert.match(failure.message, /UNIQUE/);
    assert.deepEqual(await names(db), ["taken"], "the transaction's first row was rolled back");
    await assert.rejects(sql`select * from nowhere`.execute(db), (error: { code?: string }) => {
      assert.equal(error.code, "SQLITE_ERROR");
      return true;
    });
    await db.destroy();
  });

  it("sends a write marked unanswered with the transaction's next statement, in order, and fails that one with its error", async () => {
    const { thread, db } = await open();
    await db
      .insertInto("items")
      .values([
        { name: "a", size: 1 },
        { name: "b", size: 1 },
      ])
      .execute();
    const posted: string[] = [];
    const query = thread.query.bind(thread);
    thread.query = (text, parameters, how) => {
      posted.push(text);
      return query(text, parameters, how);
    };
    const seen = await db.transaction().execute(async (trx) => {
      await trx
        .withPlugin(unanswered)
        .updateTable("items")
        .set({ size: 2 })
        .where("name", "=", "a")
        .execute();
      await trx.insertInto("items").values({ name: "c", size: 3 }).execute();
      // Run after the update and the insert, in the same round trip: it sees both.
      return trx.selectFrom("items").select(["name", "size"]).orderBy("name").execute();
    });
    assert.deepEqual(seen, [
      { name: "a", size: 2 },
      { name: "b", size: 1 },
      { name: "c", size: 3 },
    ]);
    assert.equal(
      posted.length,
      2,
      `the select (with the update, the insert) and the commit: ${posted.join("; ")}`,
    );
    // A failing one fails the statement it went with, with SQLite's code; the transaction rolls back.
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("items").values({ name: "d", size: 4 }).execute();
        await trx
          .withPlugin(unanswered)
          .updateTable("items")
          .set({ name: "b" })
          .where("name", "=", "a")
          .execute();
      })
      .then(
        () => null,
        (error: unknown) => error as { code?: string },
      );
    assert.equal(failure?.code, "SQLITE_CONSTRAINT_UNIQUE");
    assert.deepEqual(await names(db), ["a", "b", "c"], "nothing of the failed transaction stays");
    // Outside a transaction it is an ordinary write, with its count.
    const result = await db.withPlugin(unanswered).updateTable("items").set({ size: 9 }).executeTakeFirst();
    assert.equal(result.numUpdatedRows, 3n);
    await db.destroy();
  });

  it("serialises transactions on the one writing connection", async () => {
    const { db } = await open();
    await db.insertInto("items").values({ name: "counter", size: 0 }).execute();
    // Read-modify-write in 20 concurrent transactions: none may see another's half.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction().execute(async (trx) => {
          const { size } = await trx
            .selectFrom("items")
            .select("size")
            .where("name", "=", "counter")
            .executeTakeFirstOrThrow();
          await trx
            .updateTable("items")
            .set({ size: size + 1 })
            .where("name", "=", "counter")
            .execute();
        }),
      ),
    );
    const { size } = await db
      .selectFrom("items")
      .select("size")
      .where("name", "=", "counter")
      .executeTakeFirstOrThrow();
    assert.equal(size, 20);
    await db.destroy();
  });

  it("gives the writing connection to an urgent transaction before the ordinary ones waiting", async () => {
    const { db, thread } = await open();
    const urgent = new Kysely<Db>({ dialect: new SqliteThreadDialect(thread, { urgent: true }) });
    const order: string[] = [];
    let opened!: () => void;
    const holding = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One transaction holds the connection while three ordinary ones and then an urgent one queue.
    const first = db.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ name: "first", size: 0 }).execute();
      opened();
      await released;
    });
    await holding;
    const write = (on: Kysely<Db>, name: string) =>
      on.transaction().execute(async (trx) => {
        order.push(name);
        await trx.insertInto("items").values({ name, size: 0 }).execute();
      });
    const waiting = [write(db, "a"), write(db, "b"), write(db, "c")];
    await new Promise((resolve) => setImmediate(resolve));
    waiting.push(write(urgent, "urgent"));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...waiting]);
    assert.deepEqual(order, ["urgent", "a", "b", "c"]);
    assert.deepEqual(await names(db), ["first", "urgent", "a", "b", "c"]);
    await db.destroy();
  });

  it("runs a whole transaction in one message: all of it when its first statement returns a row, none else, none on an error", async () => {
    const { thread, db } = await open();
    await db.insertInto("items").values({ name: "eel", size: 1 }).execute();
    const grow = (name: string) =>
      db.updateTable("items").set({ size: 2 }).where("name", "=", name).returning("size").compile();
    const add = (name: string) => db.insertInto("items").values({ name, size: 9 }).compile();
    // The first statement returned a row: the rest runs and commits.
    assert.deepEqual(await thread.atomic(grow("eel"), [add("gull")]), [{ size: 2 }]);
    // It returned none: nothing of the rest is written.
    assert.deepEqual(await thread.atomic(grow("nobody"), [add("crab")]), []);
    // A later statement fails (a name taken): the first statement's update is rolled back too.
    await db.updateTable("items").set({ size: 1 }).where("name", "=", "eel").execute();
    await assert.rejects(
      thread.atomic(grow("eel"), [add("tern"), add("gull")]),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "SQLITE_CONSTRAINT_UNIQUE");
        return true;
      },
    );
    assert.deepEqual(await names(db), ["eel", "gull"]);
    const eel = await db.selectFrom("items").select("size").where("name", "=", "eel").executeTakeFirst();
    assert.equal(eel?.size, 1);
    await db.destroy();
  });

  it("answers a whole transaction's later reads, and reads several selects in one message", async () => {
    const { thread, db } = await open();
    await db.insertInto("items").values({ name: "eel", size: 1 }).execute();
    const grow = (name: string) =>
      db.updateTable("items").set({ size: 2 }).where("name", "=", name).returning("size").compile();
    const add = (name: string) => db.insertInto("items").values({ name, size: 9 }).compile();
    const all = db.selectFrom("items").select(["name", "size"]).orderBy("name").compile();
    // The reads see the transaction's own writes before them; a write's answer is not among them.
    for (const relaxed of [false, true]) {
      await db.updateTable("items").set({ size: 1 }).where("name", "=", "eel").execute();
      await db.deleteFrom("items").where("name", "!=", "eel").execute();
      const answer = await thread.transaction(
        grow("eel"),
        [add("gull"), { ...all, rows: true }, { ...all, rows: true }],
        relaxed ? { relaxed: true } : {},
      );
      const rows = [
        { name: "eel", size: 2 },
        { name: "gull", size: 9 },
      ];
      assert.deepEqual(answer, { rows: [{ size: 2 }], more: [rows, rows] });
      assert.deepEqual(await names(db), ["eel", "gull"]);
    }
    // Nothing claimed: no reads, nothing written.
    assert.deepEqual(await thread.transaction(grow("nobody"), [add("crab"), { ...all, rows: true }]), {
      rows: [],
      more: [],
    });
    assert.deepEqual(await names(db), ["eel", "gull"]);
    // Several selects in one message: each one's rows, in order.
    const one = (name: string) => db.selectFrom("items").select("size").where("name", "=", name).compile();
    assert.deepEqual(await thread.reads(one("gull"), [one("eel"), one("nobody")]), [
      [{ size: 9 }],
      [{ size: 2 }],
      [],
    ]);
    await db.destroy();
  });

  it("runs a whole transaction after the transaction open on the writing connection, never inside it", async () => {
    const { thread, db } = await open();
    await db.insertInto("items").values({ name: "eel", size: 1 }).execute();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened = () => {};
    const open_ = new Promise<void>((resolve) => (opened = resolve));
    // A transaction of several messages, open while the whole one arrives; then rolled back.
    const other = db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable("items").set({ size: 5 }).where("name", "=", "eel").returning("size").execute();
        opened();
        await held;
        throw new Error("rolled back");
      })
      .catch(() => "rolled back");
    await open_;
    const whole = thread.atomic(
      db.updateTable("items").set({ size: 7 }).where("size", "=", 1).returning("size").compile(),
      [db.insertInto("items").values({ name: "gull", size: 3 }).compile()],
    );
    let settled = false;
    void whole.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(settled, false, "it waits for the open transaction to end");
    release();
    assert.equal(await other, "rolled back");
    // Run after the rollback: it saw size 1 (not the rolled-back 5) and its own writes stand.
    assert.deepEqual(await within(whole, 5000), [{ size: 7 }]);
    assert.deepEqual(await names(db), ["eel", "gull"]);
    await db.destroy();
  });

  it("checkpoints the write-ahead log in a thread of its own, every CHECKPOINT_EVERY commits", async () => {
    const { db, file } = await open();
    const size = () => statSync(file).size;
    const before = size();
    // Each commit adds a row of 4 KB to the log; SQLite's own checkpoint waits for 10,000 pages.
    for (let i = 0; i < CHECKPOINT_EVERY + 4; i++)
      await db
        .insertInto("items")
        .values({ name: `${i}`.padEnd(4000, "x"), size: i })
        .execute();
    const from = performance.now();
    while (size() < before + CHECKPOINT_EVERY * 4000 && performance.now() - from < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(
      size() >= before + CHECKPOINT_EVERY * 4000,
      `the database file holds the rows (${size()} bytes)`,
    );
    assert.equal((await names(db)).length, CHECKPOINT_EVERY + 4);
    // Closing waits for the checkpointer thread, which may still be there.
    await within(db.destroy(), 15_000);
  });

  it("writes a relaxed write (synchronous NORMAL) and goes back to FULL for the next", async () => {
    const { db, thread } = await open();
    const relaxed = new Kysely<Db>({ dialect: new SqliteThreadDialect(thread, { relaxed: true }) });
    await relaxed.insertInto("items").values({ name: "claim", size: 1 }).execute();
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    assert.equal(rows[0]!.synchronous, 2, "FULL (2) again after the relaxed write");
    assert.deepEqual(await names(db), ["claim"]);
    await db.destroy();
  });

  it("answers a full disk with store/full and stores nothing of the statement", async () => {
    const { db } = await open();
    await sql`pragma max_page_count = 8`.execute(db);
    let failure: unknown = null;
    for (let i = 0; i < 100 && failure === null; i++)
      await db
        .insertInto("items")
        .values({ name: `${i}:${"x".repeat(2000)}`, size: i })
        .execute()
        .catch((error: unknown) => {
          failure = error;
        });
    assert.ok(failure instanceof ApiError, String(failure));
    assert.equal(failure.code, "store/full");
    assert.match(failure.message, /full/);
    const count = (await names(db)).length;
    assert.ok(count > 0 && count < 100);
    await db.destroy();
  });
});

describe("SQLite thread: stopping", () => {
  it("fails queries at once after close, and rolls back a transaction left open", async () => {
    const { db, file, thread } = await open();
    let inside: () => void = () => {};
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ name: "half", size: 1 }).execute();
      inside();
      await gate;
      await trx.insertInto("items").values({ name: "other half", size: 2 }).execute();
    });
    await entered;
    const closing = db.destroy();
    release();
    await assert.rejects(within(transaction, 5000), (error: ApiError) => {
      assert.equal(error.code, "store/stopped");
      return true;
    });
    await within(closing, 5000);
    // Kysely refuses a destroyed instance itself; the thread refuses a query that still reaches it.
    await assert.rejects(within(names(db), 5000), /destroyed/);
    await assert.rejects(
      within(thread.query("select 1", []), 5000),
      (error: ApiError) => error.code === "store/stopped",
    );
    const again = await open(file);
    assert.deepEqual(await names(again.db), [], "the transaction left open was rolled back");
    await again.db.destroy();
  });

  it("fails the query in flight and every later one when the thread dies", async () => {
    const { db, thread } = await open();
    await db.insertInto("items").values({ name: "a", size: 1 }).execute();
    const inFlight =
      sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000000) select count(*) from n`.execute(
        db,
      );
    await thread.terminate();
    await assert.rejects(within(inFlight, 5000), (error: ApiError) => {
      assert.equal(error.code, "store/stopped");
      assert.match(error.message, /stopped|failed/);
      return true;
    });
    await assert.rejects(
      within(db.insertInto("items").values({ name: "b", size: 1 }).execute(), 5000),
      (error: ApiError) => error.code === "store/stopped",
    );
    await within(db.destroy(), 5000);
  });

  it("refuses a file that is not a database with store/unreadable, and releases the data folder", async () => {
    const data = folder();
    writeFileSync(join(data, "taleforge.sqlite"), "this is not a database, it is a text file ".repeat(100));
    for (let attempt = 0; attempt < 2; attempt++)
      await assert.rejects(within(openStore({ data }), 10_000), (error: ApiError) => {
        // The second attempt finds the folder unlocked: the same error, not store/locked.
        assert.equal(error.code, "store/unreadable");
        assert.match(error.message, /cannot be opened: .*not a database.*backup/);
        assert.equal(error.details.sqlite, "SQLITE_NOTADB");
        return true;
      });
  });

  it("opens, migrates and closes the server's store through the thread", async () => {
    const data = folder();
    const store = await openStore({ data });
    assert.equal(store.dialect, "sqlite");
    const games = await store.db.selectFrom("games").select("id").execute();
    assert.deepEqual(games, []);
    await store.close();
    await assert.rejects(store.db.selectFrom("games").select("id").execute(), /destroyed/);
    // The claims' instance shares the thread, which is gone.
    await assert.rejects(
      store.relaxed!.selectFrom("games").select("id").execute(),
      (error: ApiError) => error.code === "store/stopped",
    );
    // Closed means the folder is free: it opens again, already migrated.
    const again = await openStore({ data });
    await again.close();
  });
});
