import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type BusMessage, coalesce, postgresBus } from "../../src/server/store/bus.ts";
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
    const off = receiver.subscribe(game, (m) => heard.push(m));
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
});
