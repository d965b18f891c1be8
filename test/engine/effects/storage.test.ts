import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { effectBench } from "../helpers.ts";

/** Spec 2.2 write-* effects on the persistent storage shared with read-* and scripts. */
describe("write-string", () => {
  test("set stores the string, replacing a value of another type", async () => {
    const { ctx, apply } = await effectBench();
    ctx.state.storage.name = 5;
    assert.equal(
      apply({ type: "write-string", key: "name", operator: "set", value: "Ada" }).status,
      "applied",
    );
    assert.equal(ctx.state.storage.name, "Ada");
    assert.equal(
      apply({ type: "write-string", key: "name", operator: "set", value: "Ada" }).status,
      "unchanged",
    );
  });
});

describe("write-number", () => {
  const cases: [string, number, number][] = [
    ["add", 5, 15],
    ["subtract", 4, 6],
    ["multiply", 3, 30],
    ["divide", 4, 2.5],
    ["set", -2, -2],
  ];
  for (const [operator, value, expected] of cases) {
    test(`${operator} ${value} on 10 gives ${expected}`, async () => {
      const { ctx, apply } = await effectBench();
      ctx.state.storage.n = 10;
      assert.equal(apply({ type: "write-number", key: "n", operator, value }).status, "applied");
      assert.equal(ctx.state.storage.n, expected);
    });
  }
  test("divide by zero leaves the value unchanged and says so", async () => {
    const { ctx, apply } = await effectBench();
    ctx.state.storage.n = 10;
    const trace = apply({ type: "write-number", key: "n", operator: "divide", value: 0 });
    assert.equal(trace.status, "unchanged");
    assert.match(trace.note!, /division by zero/);
    assert.equal(ctx.state.storage.n, 10);
  });
  test("a missing key or a non-number reads 0 first (read-number fallback)", async () => {
    const { ctx, apply } = await effectBench();
    ctx.state.storage.s = "7";
    apply({ type: "write-number", key: "s", operator: "add", value: 2 });
    apply({ type: "write-number", key: "fresh", operator: "subtract", value: 3 });
    assert.equal(ctx.state.storage.s, 2);
    assert.equal(ctx.state.storage.fresh, -3);
  });
  test("a result that is not finite is refused (storage stays JSON)", async () => {
    const { ctx, apply } = await effectBench();
    ctx.state.storage.big = 1e308;
    assert.equal(
      apply({ type: "write-number", key: "big", operator: "multiply", value: 10 }).status,
      "unchanged",
    );
    assert.equal(ctx.state.storage.big, 1e308);
  });
});

describe("write-boolean", () => {
  test("set stores the value", async () => {
    const { ctx, apply } = await effectBench();
    apply({ type: "write-boolean", key: "b", operator: "set", value: true });
    assert.equal(ctx.state.storage.b, true);
    apply({ type: "write-boolean", key: "b", operator: "set", value: false });
    assert.equal(ctx.state.storage.b, false);
  });
  test("toggle flips the read-boolean value (false when missing or not a boolean)", async () => {
    const { ctx, apply } = await effectBench();
    apply({ type: "write-boolean", key: "b", operator: "toggle" });
    assert.equal(ctx.state.storage.b, true);
    apply({ type: "write-boolean", key: "b", operator: "toggle", value: true });
    assert.equal(ctx.state.storage.b, false, "toggle ignores the value");
    ctx.state.storage.s = "yes";
    apply({ type: "write-boolean", key: "s", operator: "toggle" });
    assert.equal(ctx.state.storage.s, true);
  });
  test("set without a value is malformed and dropped", async () => {
    const { apply } = await effectBench();
    const trace = apply({ type: "write-boolean", key: "b", operator: "set", value: "true" });
    assert.equal(trace.status, "dropped");
    assert.equal(trace.reason, "malformed");
  });
});

describe("write-array", () => {
  test("set replaces, add appends (duplicates too), remove removes every occurrence", async () => {
    const { ctx, apply } = await effectBench();
    apply({ type: "write-array", key: "a", operator: "set", value: ["x", 1, true] });
    assert.deepEqual(ctx.state.storage.a, ["x", 1, true]);
    apply({ type: "write-array", key: "a", operator: "add", value: "x" });
    assert.deepEqual(ctx.state.storage.a, ["x", 1, true, "x"]);
    apply({ type: "write-array", key: "a", operator: "remove", value: "x" });
    assert.deepEqual(ctx.state.storage.a, [1, true]);
    assert.equal(
      apply({ type: "write-array", key: "a", operator: "remove", value: "zzz" }).status,
      "unchanged",
    );
  });
  test("add to a missing key or a non-array starts from []", async () => {
    const { ctx, apply } = await effectBench();
    ctx.state.storage.s = "text";
    apply({ type: "write-array", key: "s", operator: "add", value: 3 });
    apply({ type: "write-array", key: "new", operator: "add", value: false });
    assert.deepEqual(ctx.state.storage.s, [3]);
    assert.deepEqual(ctx.state.storage.new, [false]);
  });
  test("each write stores a new array, so an earlier reading is not changed", async () => {
    const { ctx, apply } = await effectBench();
    apply({ type: "write-array", key: "a", operator: "set", value: [1] });
    const earlier = ctx.state.storage.a;
    apply({ type: "write-array", key: "a", operator: "add", value: 2 });
    assert.deepEqual(earlier, [1]);
  });
  test("set needs an array and add/remove an element: other shapes are malformed", async () => {
    const { apply } = await effectBench();
    assert.equal(apply({ type: "write-array", key: "a", operator: "set", value: "x" }).reason, "malformed");
    assert.equal(apply({ type: "write-array", key: "a", operator: "add", value: ["x"] }).reason, "malformed");
  });
});
