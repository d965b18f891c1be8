import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { NewEvent } from "../../src/server/events.ts";
import { type BusMessage, carriedIds } from "../../src/server/store/bus.ts";
import { openStore } from "../../src/server/store/open.ts";
import { Store } from "../../src/server/store/store.ts";
import { DATABASE_URL, dropStore, eventually, freshStore, STORE_NAME } from "./harness.ts";
import { gameRow, playerRow, turnRow, worldRow } from "./rows.ts";

/**
 * A step's commit and a submission at the store (PostgreSQL: one statement each, statements.ts;
 * SQLite: a transaction): the same rows written, the same refusals, whichever store the tests run on.
 */
describe(`server store: a step's commit and a submission (${STORE_NAME})`, () => {
  const where = freshStore();
  let store: Store | undefined;
  after(async () => {
    await store?.open.close();
    await dropStore(where);
  });

  const event = (audience: "all" | "host", n: number) =>
    ({ audience, kind: audience === "all" ? "status" : "log", data: { n } }) as unknown as NewEvent;

  it("commits only on the live claim: the turn, its logs, its events numbered, the branch's name moved; refuses a submission while claimed", {
    timeout: 60_000,
  }, async () => {
    store = new Store(await openStore(where));
    const now = Date.now();
    await store.putWorld(worldRow(now));
    await store.importGame(gameRow(now), { ...turnRow(now, 0, null, 0), kind: "import" });
    await store.db.insertInto("players").values(playerRow(now)).execute();
    await store.db
      .insertInto("branch_names")
      .values({ game_id: "g1", seq: 0, name: "main", name_key: "main", created_at: now })
      .execute();
    const submission = (key: string, tick: number) => ({
      id: `s-${key}`,
      game_id: "g1",
      player_id: "p1",
      tick,
      idempotency_key: key,
      text: "look",
      created_at: Date.now(),
    });
    assert.equal(await store.addSubmission(submission("a", 1), event("all", 0)), "ok");
    assert.equal(await store.addSubmission(submission("a", 1), event("all", 0)), "duplicate");
    assert.equal(
      await store.addSubmission(submission("b", 2), event("all", 0)),
      "busy",
      "not the game's next tick",
    );

    assert.ok(await store.lease("g1", 1, "me", Date.now() + 60_000));
    assert.equal(await store.addSubmission(submission("c", 1), event("all", 0)), "busy", "claimed");
    const logs = [0, 1].map((n) => ({
      tick: 1,
      phase: "turn",
      trigger: n === 0 ? null : "t",
      type: "info",
      message: `m${n}`,
    }));
    const events = [event("all", 1), event("host", 2), event("all", 3), event("host", 4)];
    const before = await store.game("g1");
    assert.equal(await store.commitStep(turnRow(now, 1, 0, 1), "someone else", logs, events), false);
    assert.equal((await store.game("g1"))?.event_seq, before?.event_seq, "nothing numbered");
    assert.equal(await store.turn("g1", 1), undefined, "nothing written");

    assert.equal(
      await store.commitStep(turnRow(now, 1, 0, 1), "me", logs, events, { status: "paused" }),
      true,
    );
    const after = await store.game("g1");
    assert.deepEqual(
      [after?.seq, after?.head, after?.tick, after?.lease_owner, after?.lease_until, after?.status],
      [2, 1, 1, null, null, "paused"],
    );
    assert.equal((await store.turn("g1", 1))?.narration, "narration 1");
    assert.deepEqual(
      (await store.log("g1", {}, 10)).map((l) => [Number(l.seq), Number(l.n), l.trigger, l.message]),
      [
        [1, 0, null, "m0"],
        [1, 1, "t", "m1"],
      ],
    );
    const stored = await store.events("g1", { seq: 0, sub: 0 }, 20);
    assert.deepEqual(
      stored.map((e) => [Number(e.seq), Number(e.sub), e.audience, JSON.parse(e.data).n ?? null]),
      [
        [1, 0, "all", null],
        [2, 0, "all", 0],
        [3, 0, "all", 1],
        [3, 1, "host", 2],
        [4, 0, "all", 3],
        [4, 1, "host", 4],
      ],
    );
    assert.equal(Number(after?.event_seq), 4);
    assert.deepEqual([...(await store.branchNames("g1"))], [[1, "main"]], "the name moved with the branch");
    assert.equal(
      await store.commitStep(turnRow(now, 1, 0, 1), "me", logs, events),
      false,
      "a commit applies once",
    );

    // The restore reads the head's state (on SQLite the one this store committed is not read back:
    // heads.ts): the same as a store that committed nothing reads, whichever way the head moved.
    const reader = new Store(store.open);
    const restored = async (state: string) => {
      const mine = await store?.lastTurn("g1");
      assert.equal(mine?.state, state);
      assert.deepEqual(mine, await reader.lastTurn("g1"));
    };
    await restored("state 1");
    assert.ok(await store.lease("g1", 2, "me", Date.now() + 60_000));
    assert.ok(await store.moveHead("g1", 2, "me", { seq: 0, tick: 0 }, [event("all", 5)]));
    await restored("state 0");
    assert.ok(await store.lease("g1", 3, "me", Date.now() + 60_000));
    assert.ok(await store.commitStep(turnRow(now, 3, 0, 1), "me", [], [event("all", 6)]));
    await restored("state 3");
    assert.ok(await store.lease("g1", 4, "me", Date.now() + 60_000));
    assert.ok(await store.moveHead("g1", 4, "me", { seq: 1, tick: 1 }, [event("all", 7)]));
    await restored("state 1");
  });
});

/**
 * PostgreSQL: a submission's and a step's wake carry their events (bus.ts EventsMessage), which an event
 * stream writes without reading the store when they follow its last event: their ids and data must be
 * the stored rows', and a write numbered after an event already stored (a `sub` first) must wake before
 * any later write of the game, or a stream would take the later write's events and never read it.
 */
describe("server store: the events a write's wake carries (postgresql)", {
  skip: DATABASE_URL ? false : "PostgreSQL only: TALEFORGE_TEST_DATABASE_URL is not set",
}, () => {
  const where = freshStore();
  let store: Store | undefined;
  after(async () => {
    await store?.open.close();
    await dropStore(where);
  });

  it("carries the stored events, numbered as stored, and wakes for a later audience's events first", {
    timeout: 60_000,
  }, async () => {
    store = new Store(await openStore(where));
    const now = Date.now();
    await store.putWorld(worldRow(now));
    await store.importGame(gameRow(now), { ...turnRow(now, 0, null, 0), kind: "import" });
    await store.db.insertInto("players").values(playerRow(now)).execute();
    const heard: BusMessage[] = [];
    const off = await store.bus.subscribe("g1", (m) => heard.push(m));
    const event = (audience: "all" | "host", n: number) =>
      ({
        audience,
        kind: audience === "all" ? "status" : "log",
        data: { n, text: 'ü " \u2028' },
      }) as unknown as NewEvent;
    try {
      const submission = {
        id: "s1",
        game_id: "g1",
        player_id: "p1",
        tick: 1,
        idempotency_key: "k",
        text: "look",
        created_at: now,
      };
      assert.equal(await store.addSubmission(submission, event("all", 1)), "ok");
      assert.ok(await store.lease("g1", 1, "me", Date.now() + 60_000));
      const events = [event("all", 2), event("host", 3), event("all", 4), event("host", 5)];
      assert.ok(await store.commitStep(turnRow(now, 1, 0, 1), "me", [], events));
      // Events for one audience first: numbered after the game's last event for everyone.
      // Its wake published after its commit may come after a later write's (another connection): a
      // store whose publish is lost shows that its transaction sent one itself.
      const lost = new Store({ ...store.open, bus: { ...store.open.bus, publish: async () => {} } });
      await lost.addEvents("g1", [event("host", 6)]);
      assert.ok(await store.lease("g1", 2, "me", Date.now() + 60_000));
      assert.ok(await store.commitStep(turnRow(now, 2, 1, 2), "me", [], [event("all", 7)]));
      await eventually(
        async () => heard.filter((m) => m.kind === "events" && m.events).length,
        (n) => n >= 3,
        10_000,
      );
      const stored = (await store.events("g1", { seq: 0, sub: 0 }, 50)).map((e) => ({
        seq: Number(e.seq),
        sub: Number(e.sub),
        audience: e.audience,
        kind: e.kind,
        data: e.data,
      }));
      const carried = heard.flatMap((m) =>
        m.kind === "events" && m.events
          ? carriedIds(m).map((id, i) => ({ ...id, ...m.events![i]!, o: undefined, s: undefined }))
          : [],
      );
      const plain = (rows: object[]) => rows.map((r) => JSON.parse(JSON.stringify(r)));
      const ofWrites = stored.filter((e) => e.seq > 1 && JSON.parse(e.data).n !== 6);
      assert.deepEqual(plain(carried), plain(ofWrites), "every write's events, as stored");
      // The later audience's event (4.2) woke its streams before the next write's carried events.
      const order = heard
        .filter((m) => m.kind === "events")
        .map((m) => (m.kind === "events" && m.events ? carriedIds(m)[0]!.seq : "plain"));
      const plainAt = order.indexOf("plain");
      assert.ok(
        plainAt >= 0 && plainAt < order.indexOf(5),
        `a plain wake before the last commit's: ${order.join(", ")}`,
      );
    } finally {
      off();
    }
  });
});
