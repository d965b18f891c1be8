import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StepSlots } from "../../src/server/runner.ts";

describe("server step slots: the steps one process runs at once", () => {
  it("lets `size` steps run and the others wait, first come first served", async () => {
    const slots = new StepSlots(2);
    const order: string[] = [];
    const step = async (name: string, work: Promise<void>) => {
      const waited = await slots.take();
      order.push(`${name} starts${waited > 0 ? " after waiting" : ""}`);
      await work;
      order.push(`${name} ends`);
      slots.give();
    };
    let finishA!: () => void;
    let finishB!: () => void;
    const a = step("a", new Promise((r) => (finishA = r)));
    const b = step("b", new Promise((r) => (finishB = r)));
    const c = step("c", Promise.resolve());
    const d = step("d", Promise.resolve());
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ["a starts", "b starts"]);
    assert.equal(slots.queued, 2);
    finishB();
    await Promise.all([b, c, d]);
    // b's slot went to c, then to d (the order they came), while a still held the other.
    assert.deepEqual(order.slice(2), [
      "b ends",
      "c starts after waiting",
      "c ends",
      "d starts after waiting",
      "d ends",
    ]);
    finishA();
    await a;
    assert.equal(order.at(-1), "a ends");
    assert.equal(slots.queued, 0);
  });

  it("has no limit at size 0", async () => {
    const slots = new StepSlots(0);
    for (let i = 0; i < 100; i++) assert.equal(await slots.take(), 0);
    assert.equal(slots.queued, 0);
  });

  it("shares slots fairly: a host with many steps waiting does not go before another's (issue 32, finding 5)", async () => {
    const slots = new StepSlots(1);
    const order: string[] = [];
    const step = async (key: { game: string; host: string; slowed?: boolean }) => {
      await slots.take(key);
      order.push(key.game);
      await new Promise((r) => setImmediate(r));
      slots.give(key);
    };
    // Host H's games came first and fill the queue; K's game and a slowed game of L come last.
    const busy = { game: "h0", host: "H" };
    await slots.take(busy);
    const all = [1, 2, 3, 4].map((n) => step({ game: `h${n}`, host: "H" }));
    all.push(step({ game: "l1", host: "L", slowed: true }));
    all.push(step({ game: "k1", host: "K" }));
    all.push(step({ game: "h5", host: "H" }));
    slots.give(busy);
    await Promise.all(all);
    // K was never served: it goes first; H's games in the order they came; the slowed game last.
    assert.deepEqual(order, ["k1", "h1", "h2", "h3", "h4", "h5", "l1"]);
  });

  it("serves the host served longest ago first, and a game with a step running after one with none", async () => {
    const slots = new StepSlots(2);
    const order: string[] = [];
    // A and B each hold a slot; A, B and C (never served) each have a step waiting.
    const a = { game: "a1", host: "A" };
    const b = { game: "b1", host: "B" };
    await slots.take(a);
    await slots.take(b);
    const waits = [
      slots.take({ game: "a2", host: "A" }).then(() => order.push("a2")),
      slots.take({ game: "b2", host: "B" }).then(() => order.push("b2")),
      slots.take({ game: "c1", host: "C" }).then(() => order.push("c1")),
    ];
    slots.give(b); // B has nothing running now, A has a1: C (never served) first, then B, then A.
    await new Promise((r) => setImmediate(r));
    slots.give({ game: "c1", host: "C" });
    await new Promise((r) => setImmediate(r));
    slots.give(a);
    await Promise.all(waits);
    assert.deepEqual(order, ["c1", "b2", "a2"]);
  });

  it("hands back the steps that hold no claim yet, at shutdown", async () => {
    const slots = new StepSlots(1);
    await slots.take();
    const queued = slots.take({ game: "g", host: "h", unclaimed: true });
    const claimed = slots.take({ game: "g2", host: "h2" });
    slots.handBack(new Error("shutting down"));
    await assert.rejects(queued, /shutting down/);
    assert.equal(slots.queued, 1, "a step that holds its claim keeps its place");
    slots.give();
    assert.equal(await claimed.then(() => "ran"), "ran");
  });
});
