import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type BusMessage, channelOf, coalesce, postgresBus } from "../../src/server/store/bus.ts";
import { DATABASE_URL, eventually } from "./harness.ts";

describe("server bus: batching what one NOTIFY round trip sends", () => {
  it("joins a game's consecutive chunks of one tick, in order", () => {
    const out = coalesce([
      { game: "a", kind: "chunk", tick: 1, text: "The " },
      { game: "a", kind: "chunk", tick: 1, text: "tide " },
      { game: "b", kind: "chunk", tick: 4, text: "Rain." },
      { game: "a", kind: "chunk", tick: 1, text: "turns." },
      { game: "a", kind: "chunk", tick: 2, text: "Next." },
    ]);
    assert.deepEqual(out, [
      { game: "a", kind: "chunk", tick: 1, text: "The tide " },
      { game: "b", kind: "chunk", tick: 4, text: "Rain." },
      { game: "a", kind: "chunk", tick: 1, text: "turns." },
      { game: "a", kind: "chunk", tick: 2, text: "Next." },
    ]);
  });

  it("sends a game's wake once, but again after a chunk of that game", () => {
    const out = coalesce([
      { game: "a", kind: "events" },
      { game: "b", kind: "events" },
      { game: "a", kind: "events" },
      { game: "a", kind: "chunk", tick: 1, text: "x" },
      { game: "a", kind: "events" },
    ]);
    assert.deepEqual(
      out.map((m) => `${m.game}:${m.kind}`),
      ["a:events", "b:events", "a:chunk", "a:events"],
    );
  });

  it("folds a wake that carries events into a plain one (its listeners read both writes' events)", () => {
    const carried = (last: number): BusMessage => ({
      game: "a",
      kind: "events",
      last,
      events: [{ o: 1, s: 0, audience: "all", kind: "status", data: "{}" }],
    });
    assert.deepEqual(coalesce([carried(4), { game: "b", kind: "events" }, carried(5)]), [
      { game: "a", kind: "events" },
      { game: "b", kind: "events" },
    ]);
    assert.deepEqual(coalesce([carried(4)]), [carried(4)], "alone: as it is");
  });
});

describe("server bus: PostgreSQL LISTEN/NOTIFY between two processes' buses", {
  skip: DATABASE_URL ? false : "PostgreSQL only: TALEFORGE_TEST_DATABASE_URL is not set",
}, () => {
  it("delivers many messages published at once, in order, equal chunks included", {
    timeout: 60_000,
  }, async () => {
    const sender = await postgresBus({ connectionString: DATABASE_URL! });
    const receiver = await postgresBus({ connectionString: DATABASE_URL! });
    const game = `bus-test-${process.pid}-${Date.now()}`;
    const heard: BusMessage[] = [];
    const off = await receiver.subscribe(game, (m) => heard.push(m));
    try {
      // Equal texts on purpose: PostgreSQL folds equal payloads of one transaction into one.
      const texts = Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? "Again. " : `Part ${i}. `));
      await Promise.all([
        ...texts.map((text) => sender.publish({ game, kind: "chunk", tick: 3, text })),
        sender.publish({ game, kind: "events" }),
        sender.publish({ game, kind: "chunk", tick: 4, text: "x".repeat(5000) }),
      ]);
      const tail = (m: BusMessage) => m.kind === "chunk" && m.tick === 4;
      await eventually(
        async () => heard.filter(tail).reduce((n, m) => n + (m as { text: string }).text.length, 0),
        (n) => n >= 5000,
        20_000,
      );
      const tick3 = heard.filter(
        (m): m is Extract<BusMessage, { kind: "chunk" }> => m.kind === "chunk" && m.tick === 3,
      );
      assert.equal(tick3.map((m) => m.text).join(""), texts.join(""));
      const kinds = heard.map((m) => (m.kind === "chunk" ? `chunk ${m.tick}` : m.kind));
      assert.ok(kinds.lastIndexOf("chunk 3") < kinds.indexOf("events"), kinds.join(", "));
      assert.ok(kinds.indexOf("events") < kinds.indexOf("chunk 4"), kinds.join(", "));
      const tick4 = heard.filter((m) => m.kind === "chunk" && m.tick === 4) as { text: string }[];
      assert.equal(tick4.map((m) => m.text).join(""), "x".repeat(5000));
      assert.ok(tick4.length >= 3, "a long chunk is split below the NOTIFY payload limit");
    } finally {
      off();
      await sender.close();
      await receiver.close();
    }
  });

  it("gives a writer a wake to send after the game's published messages only once they are sent", {
    timeout: 60_000,
  }, async () => {
    const bus = await postgresBus({ connectionString: DATABASE_URL! });
    const game = `bus-wake-${process.pid}-${Date.now()}`;
    const other = `${game}-other`;
    try {
      const wake = { channel: channelOf(game), payload: JSON.stringify({ game, kind: "events" }) };
      assert.deepEqual(bus.wakeNotice?.(game, true), wake, "nothing published: the wake now");
      const sent = bus.publish({ game, kind: "chunk", tick: 1, text: "a chunk" });
      assert.equal(bus.wakeNotice?.(game, true), undefined, "a chunk not sent yet: the writer publishes");
      assert.deepEqual(bus.wakeNotice?.(game), wake, "a wake with no order to keep");
      assert.ok(bus.wakeNotice?.(other, true), "another game's chunk does not hold it");
      await sent;
      assert.deepEqual(bus.wakeNotice?.(game, true), wake, "the chunk sent");
    } finally {
      await bus.close();
    }
  });
});

describe("server bus: a channel per game, listened on while a listener follows it", {
  skip: DATABASE_URL ? false : "PostgreSQL only: TALEFORGE_TEST_DATABASE_URL is not set",
}, () => {
  it("sends a game's messages on that game's channel only", { timeout: 30_000 }, async () => {
    const pg = (await import("pg")).default;
    const sender = await postgresBus({ connectionString: DATABASE_URL! });
    const raw = new pg.Client({ connectionString: DATABASE_URL! });
    await raw.connect();
    const a = `bus-a-${process.pid}-${Date.now()}`;
    const b = `bus-b-${process.pid}-${Date.now()}`;
    const got: { channel: string; payload: string | undefined }[] = [];
    raw.on("notification", (n) => got.push({ channel: n.channel, payload: n.payload }));
    try {
      await raw.query(`listen "${channelOf(a)}"; listen "${channelOf(b)}"`);
      await sender.publish({ game: a, kind: "events" });
      await sender.publish({ game: b, kind: "chunk", tick: 1, text: "For b." });
      await eventually(
        async () => got.length,
        (n) => n >= 2,
        10_000,
      );
      assert.deepEqual(
        got.map((g) => [g.channel, JSON.parse(g.payload!).game]),
        [
          [channelOf(a), a],
          [channelOf(b), b],
        ],
      );
      assert.notEqual(channelOf(a), channelOf(b));
      assert.ok(channelOf("x".repeat(200)).length <= 63, "a long id still makes a valid channel name");
    } finally {
      await raw.end();
      await sender.close();
    }
  });

  it("hears a game while one of its listeners remains, and again after a new one", {
    timeout: 30_000,
  }, async () => {
    const sender = await postgresBus({ connectionString: DATABASE_URL! });
    const receiver = await postgresBus({ connectionString: DATABASE_URL! });
    const game = `bus-follow-${process.pid}-${Date.now()}`;
    const first: string[] = [];
    const second: string[] = [];
    const third: string[] = [];
    const say = (text: string) => sender.publish({ game, kind: "chunk", tick: 1, text });
    const text = (m: BusMessage) => (m.kind === "chunk" ? m.text : m.kind);
    try {
      const offFirst = await receiver.subscribe(game, (m) => first.push(text(m)));
      const offSecond = await receiver.subscribe(game, (m) => second.push(text(m)));
      await say("one");
      await eventually(
        async () => second.length,
        (n) => n >= 1,
        10_000,
      );
      offFirst();
      await say("two");
      await eventually(
        async () => second.length,
        (n) => n >= 2,
        10_000,
      );
      offSecond();
      // The last listener left (UNLISTEN), then a new one came: it hears what is published after.
      const offThird = await receiver.subscribe(game, (m) => third.push(text(m)));
      await say("three");
      await eventually(
        async () => third.length,
        (n) => n >= 1,
        10_000,
      );
      offThird();
      assert.deepEqual(first, ["one"]);
      assert.deepEqual(second, ["one", "two"]);
      assert.deepEqual(third, ["three"]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });
});
