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
