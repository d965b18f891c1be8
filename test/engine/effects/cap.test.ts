import assert from "node:assert/strict";
import { test } from "node:test";
import { applyEffects, EFFECT_CAP } from "../../../src/engine/effects/apply.ts";
import { effectBench } from "../helpers.ts";

const write = (n: number) => ({ type: "write-number", key: `k${n}`, operator: "set", value: n });

test("spec 8 / resolutions: the cap counts valid effects only: malformed are dropped first, then the first 5 apply", async () => {
  const { ctx } = await effectBench();
  const list = [
    write(1),
    { type: "bogus" },
    write(2),
    { type: "write-number", key: "x" },
    write(3),
    write(4),
    write(5),
    write(6),
    write(7),
  ];
  const traces = applyEffects(list, "typed", ctx, EFFECT_CAP);
  assert.deepEqual(
    traces.map((t) => [t.index, t.status, t.reason ?? ""]),
    [
      [0, "applied", ""],
      [1, "dropped", "malformed"],
      [2, "applied", ""],
      [3, "dropped", "malformed"],
      [4, "applied", ""],
      [5, "applied", ""],
      [6, "applied", ""],
      [7, "dropped", "over the cap"],
      [8, "dropped", "over the cap"],
    ],
  );
  assert.deepEqual(Object.keys(ctx.state.storage).sort(), ["k1", "k2", "k3", "k4", "k5"]);
  assert.match(traces[1]!.note!, /unknown effect type/);
});

test("spec 2.2: malformed effects are silently dropped (no throw, no state change)", async () => {
  const { ctx } = await effectBench();
  const before = JSON.stringify(ctx.state);
  const traces = applyEffects(
    [null, 3, "x", [], { type: "quest-init", operator: "set" }, { type: "story" }],
    "typed",
    ctx,
    EFFECT_CAP,
  );
  assert.ok(traces.every((t) => t.status === "dropped" && t.reason === "malformed"));
  assert.equal(JSON.stringify(ctx.state), before);
});

test("a null cap applies every valid effect (narrative event completion effects)", async () => {
  const { ctx } = await effectBench();
  const traces = applyEffects([1, 2, 3, 4, 5, 6, 7].map(write), "event", ctx, null);
  assert.equal(traces.filter((t) => t.status === "applied").length, 7);
});
