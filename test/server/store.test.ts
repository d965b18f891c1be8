import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import pg from "pg";
import { openStore } from "../../src/server/store/open.ts";
import { DATABASE_URL, dropStore, freshStore } from "./harness.ts";

/**
 * Opening (and migrating) a PostgreSQL store while other schemas of the same
 * database come and go, as they do when other servers' tests clean up: the
 * migration used to fail with `schema "<another one>" does not exist`, because
 * Kysely's introspector looked names up across every schema.
 */
describe("server store: opening PostgreSQL schemas", {
  skip: DATABASE_URL ? false : "PostgreSQL only: TALEFORGE_TEST_DATABASE_URL is not set",
}, () => {
  it("migrates a fresh schema while other schemas are created and dropped", {
    timeout: 120_000,
  }, async () => {
    const url = DATABASE_URL!;
    let stop = false;
    const churnSchemas = async (k: number) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (let i = 0; !stop; i++) {
        const schema = `${freshStore().schema}_churn${k}_${i % 3}`;
        await client.query(`create schema ${schema}`);
        await client.query(`create table ${schema}.t (id bigserial primary key, a text, b text)`);
        await client.query(`drop schema ${schema} cascade`);
      }
      await client.end();
    };
    const churning = Promise.all([churnSchemas(1), churnSchemas(2)]);
    const failures: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const where = freshStore();
        try {
          const store = await openStore(where);
          await store.close();
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await dropStore(where);
        }
      }
    } finally {
      stop = true;
      await churning;
    }
    assert.deepEqual(failures, []);
  });

  it("lets three processes open a new schema at the same moment", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const where = freshStore();
      try {
        const opened = await Promise.allSettled([0, 1, 2].map(() => openStore(where)));
        for (const o of opened) if (o.status === "fulfilled") await o.value.close();
        assert.deepEqual(
          opened
            .filter((o) => o.status === "rejected")
            .map((o) => String((o as PromiseRejectedResult).reason)),
          [],
        );
      } finally {
        await dropStore(where);
      }
    }
  });

  it("runs its queries as prepared statements, and again after another process changed a table", {
    timeout: 60_000,
  }, async () => {
    const where = freshStore();
    // One connection, so that the second query meets the statement the first one prepared.
    const store = await openStore({ ...where, poolSize: 1 });
    const other = new pg.Client({ connectionString: where.database });
    await other.connect();
    try {
      const worlds = () => store.db.selectFrom("worlds").selectAll().execute();
      assert.deepEqual(await worlds(), []);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        store.db,
      );
      assert.ok(
        prepared.rows.some((r) => r.statement === 'select * from "worlds"'),
        JSON.stringify(prepared.rows),
      );
      // A newer server's migration adds a column: the prepared `select *` would now fail with
      // "cached plan must not change result type"; the store prepares it again and answers.
      await other.query(`alter table ${where.schema}.worlds add column extra text`);
      assert.deepEqual(await worlds(), []);
      // Inside a transaction the failure aborts it; the next attempt succeeds.
      await other.query(`alter table ${where.schema}.worlds drop column extra`);
      const inside = () =>
        store.db.transaction().execute((trx) => trx.selectFrom("worlds").selectAll().execute());
      await inside().catch(() => {});
      assert.deepEqual(await inside(), []);
    } finally {
      await other.end();
      await store.close();
      await dropStore(where);
    }
  });

  it("stores turns' text compressed with lz4 (PostgreSQL 14 and later, built with it)", async () => {
    const where = freshStore();
    const store = await openStore(where);
    try {
      const version = await sql<{
        n: number;
      }>`select current_setting('server_version_num')::int as n`.execute(store.db);
      if ((version.rows[0]?.n ?? 0) < 140000) return; // attcompression (and lz4) came with PostgreSQL 14
      const { rows } = await sql<{ column: string; compression: string }>`
        select a.attname as column, a.attcompression as compression
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${where.schema} and c.relname = 'turns' and a.attname in ('state', 'cassette', 'trace')
        order by a.attname`.execute(store.db);
      assert.deepEqual(
        rows.map((r) => [r.column, r.compression]),
        [
          ["cassette", "l"],
          ["state", "l"],
          ["trace", "l"],
        ],
      );
    } finally {
      await store.close();
      await dropStore(where);
    }
  });
});

/**
 * PostgreSQL restarts (or an administrator terminates a backend) while a
 * connection is checked out of the pool between two queries, as one is
 * during a turn's transaction. node-postgres then emits `error` on that
 * client, and the pool listens only to idle clients: without a listener of
 * our own the process dies of an uncaught exception. The transaction must
 * fail, the process must live, and the next query must get a new connection.
 */
describe("server store: a PostgreSQL connection lost while checked out", {
  skip: DATABASE_URL ? false : "PostgreSQL only: TALEFORGE_TEST_DATABASE_URL is not set",
}, () => {
  it("fails the transaction, keeps the process alive and reconnects", { timeout: 60_000 }, async () => {
    const base = freshStore();
    const tag = `${base.schema}_lost`;
    const where = {
      ...base,
      database: `${DATABASE_URL}${DATABASE_URL!.includes("?") ? "&" : "?"}application_name=${tag}`,
    };
    const store = await openStore(where);
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      const failed = await store.db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await admin.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
            [tag],
          );
          // Let the socket's end reach the client while no query is active on it.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await sql`select 2`.execute(trx);
        })
        .then(
          () => false,
          () => true,
        );
      assert.equal(failed, true, "the transaction on the lost connection should have failed");
      // Without a listener of ours, node:test fails this test here with the uncaught
      // "terminating connection due to administrator command" (57P01).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows } = await sql<{ n: number }>`select 3 as n`.execute(store.db);
      assert.equal(rows[0]?.n, 3);
    } finally {
      await admin.end();
      await store.close().catch(() => {});
      await dropStore(base);
    }
  });
});
