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
});
