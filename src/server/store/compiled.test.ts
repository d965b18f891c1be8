import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Generated, Kysely, sql } from "kysely";
import { compiledOnce } from "./compiled.ts";
import { SqliteThread, SqliteThreadDialect } from "./sqlite-thread.ts";

interface Db {
  items: { id: Generated<number>; name: string; size: number };
}

const folder = mkdtempSync(join(tmpdir(), "taleforge-compiled-"));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("a query compiled once", () => {
  it("answers what the query built at each call answers, for every argument", async () => {
    const thread = await SqliteThread.open(join(folder, "c.sqlite"));
    const db = new Kysely<Db>({ dialect: new SqliteThreadDialect(thread) });
    await sql`create table items (id integer primary key, name text not null unique, size integer not null)`.execute(
      db,
    );
    for (const [name, size] of [
      ["a", 1],
      ["b", 2],
      ["c", 2],
      ["d", 5],
    ] as const)
      await db.insertInto("items").values({ name, size }).execute();
    // An argument used twice (`size`), a constant of the query ("z"), and a limit.
    const build = (size: number, name: string, limit: number) =>
      db
        .selectFrom("items")
        .select(["name", "size"])
        .where((eb) => eb.or([eb("size", ">", size), eb.and([eb("size", "=", size), eb("name", ">", name)])]))
        .where("name", "!=", "z")
        .orderBy("size")
        .orderBy("name")
        .limit(limit);
    const once = compiledOnce(db as unknown as Kysely<never>, build);
    for (const args of [
      [1, "a", 10],
      [2, "b", 10],
      [2, "b", 1],
      [0, "", 3],
      [5, "d", 10],
    ] as [number, string, number][]) {
      const expected = await build(...args).execute();
      assert.deepEqual(await once(...args), expected, `arguments ${JSON.stringify(args)}`);
    }
    // An argument the query makes part of its SQL text, not a parameter: built at each call.
    const raw = compiledOnce(db as unknown as Kysely<never>, (column: string) =>
      db.selectFrom("items").select(sql.ref(column).as("v")).orderBy("id"),
    );
    assert.deepEqual(
      (await raw("name")).map((r) => (r as { v: unknown }).v),
      ["a", "b", "c", "d"],
    );
    assert.deepEqual(
      (await raw("size")).map((r) => (r as { v: unknown }).v),
      [1, 2, 2, 5],
    );
    await db.destroy();
  });
});
