import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { sql } from "kysely";
import { openStore } from "../../src/server/store/open.ts";
import { Store } from "../../src/server/store/store.ts";
import { DATABASE_URL, dropStore, eventually, freshStore, STORE_NAME } from "./harness.ts";
import { gameRow, worldRow } from "./rows.ts";

/**
 * A process's presence (OpenStore.presence) and the release of the claims of processes that are gone
 * (Store.releaseAbsentClaims): on PostgreSQL a claim ending with a presence that pg_stat_activity no
 * longer lists is released at once; a live process's claim, this process's own, a claim with no
 * presence and a lapsed one are left. On SQLite (one process) there is no presence and nothing to do.
 */
describe(`server store: the claims of a process that is gone (${STORE_NAME})`, () => {
  const where = freshStore();
  const opened: Store[] = [];
  after(async () => {
    for (const store of opened) await store.open.close().catch(() => {});
    await dropStore(where);
  });
  const open = async () => {
    const store = new Store(await openStore(where));
    opened.push(store);
    return store;
  };
  const ownerOf = async (store: Store, game: string) => (await store.game(game))?.lease_owner ?? null;

  it("releases only the live claims whose process's connection is gone", { timeout: 60_000 }, async () => {
    const a = await open();
    const now = Date.now();
    await a.putWorld(worldRow(now));
    const ids = ["mine", "theirs", "old", "gone", "lapsed"];
    for (const id of ids)
      await a.db
        .insertInto("games")
        .values(gameRow(now, { id, host_token_hash: `h-${id}`, invite_code: `i-${id}` }))
        .execute();

    if (!DATABASE_URL) {
      assert.equal(a.open.presence, undefined, "SQLite: one process, no presence");
      assert.ok(await a.lease("mine", 0, "p/1", now + 60_000));
      assert.deepEqual(await a.releaseAbsentClaims(Date.now()), []);
      assert.equal(await ownerOf(a, "mine"), "p/1");
      return;
    }

    const b = await open();
    assert.match(a.open.presence ?? "", /^taleforge-[0-9a-f]{24}$/);
    assert.match(b.open.presence ?? "", /^taleforge-[0-9a-f]{24}$/);
    assert.notEqual(a.open.presence, b.open.presence);
    const until = now + 60_000;
    assert.ok(await a.lease("mine", 0, `p/1@${a.open.presence}`, until));
    assert.ok(await b.lease("theirs", 0, `q/2@${b.open.presence}`, until));
    assert.ok(await a.lease("old", 0, "r/3", until), "an older process's claim: no presence");
    assert.ok(await a.lease("gone", 0, "s@x/4@taleforge-0123456789abcdef01234567", until));
    assert.ok(await a.lease("lapsed", 0, "t/5@taleforge-0123456789abcdef01234567", now - 1));

    // Seen from b: a is alive; the one whose presence nobody holds is gone.
    assert.deepEqual(await b.releaseAbsentClaims(Date.now()), ["gone"]);
    assert.equal(await ownerOf(b, "gone"), null);
    assert.equal(await ownerOf(b, "mine"), `p/1@${a.open.presence}`);
    assert.equal(await ownerOf(b, "old"), "r/3");
    assert.equal(
      await ownerOf(b, "lapsed"),
      "t/5@taleforge-0123456789abcdef01234567",
      "lapsed: free already",
    );
    assert.ok(await b.lease("gone", 0, `q/6@${b.open.presence}`, until), "free to claim");

    // a's connection cut (as by a network fault): a does not release its own claim; the bus reconnects
    // under the same name, and then b sees a alive again.
    const listed = async (presence: string) =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_stat_activity where application_name = ${presence}`.execute(b.db)
      ).rows[0]!.n;
    const aPresence = a.open.presence!;
    assert.equal(await listed(aPresence), 1);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${aPresence}`.execute(
      b.db,
    );
    await eventually(
      () => listed(aPresence),
      (n) => n === 0,
      10_000,
    );
    assert.deepEqual(await a.releaseAbsentClaims(Date.now()), [], "never its own");
    await eventually(
      () => listed(aPresence),
      (n) => n === 1,
      10_000,
    );
    assert.deepEqual(await b.releaseAbsentClaims(Date.now()), [], "a is back");
    assert.equal(await ownerOf(b, "mine"), `p/1@${a.open.presence}`);

    // a stops (as a process killed): its connection closes, and b releases its claim at once.
    await a.open.close();
    opened.splice(opened.indexOf(a), 1);
    assert.deepEqual(await b.releaseAbsentClaims(Date.now()), ["mine"]);
    assert.equal(await ownerOf(b, "mine"), null);
    assert.equal(await ownerOf(b, "theirs"), `q/2@${b.open.presence}`, "its own, never");
    assert.equal(await ownerOf(b, "old"), "r/3");
  });
});
