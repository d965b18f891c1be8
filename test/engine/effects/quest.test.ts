import assert from "node:assert/strict";
import { test } from "node:test";
import { questEntry } from "../../../src/engine/quests.ts";
import { effectBench } from "../helpers.ts";

const status = (ctx: Awaited<ReturnType<typeof effectBench>>["ctx"]) =>
  ctx.state.quests["Lost Sheep"]?.status ?? "hidden";

test("spec 3 quest-init: a hidden quest becomes available, recorded with its tick", async () => {
  const { ctx, apply } = await effectBench();
  assert.equal(apply({ type: "quest-init", operator: "set", value: "Lost Sheep" }).status, "applied");
  assert.equal(status(ctx), "available");
  assert.deepEqual(ctx.state.quests["Lost Sheep"]!.transitions, [{ status: "available", tick: 0 }]);
  assert.deepEqual(ctx.state.quests["Lost Sheep"]!.availableAt, { tick: 0, location: "Old Mill" });
  assert.deepEqual(ctx.recorder.madeAvailable, ["Lost Sheep"]);
});

test("quest-init matches the quest's map key exactly, and only moves a hidden or expired quest", async () => {
  const { ctx, apply } = await effectBench();
  assert.match(apply({ type: "quest-init", operator: "set", value: "lost sheep" }).note!, /no quest/);
  apply({ type: "quest-init", operator: "set", value: "Lost Sheep" });
  questEntry(ctx, "Lost Sheep").status = "rejected";
  assert.match(
    apply({ type: "quest-init", operator: "set", value: "Lost Sheep" }).note!,
    /is rejected, not hidden or expired/,
  );
  assert.equal(status(ctx), "rejected");
  for (const kept of ["available", "accepted", "completed", "abandoned"] as const) {
    questEntry(ctx, "Lost Sheep").status = kept;
    assert.equal(apply({ type: "quest-init", operator: "set", value: "Lost Sheep" }).status, "unchanged");
    assert.equal(status(ctx), kept);
  }
});

test("quest-init offers an expired quest again: a new availability, so a new prompt and a new expiry window", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "quest-init", operator: "set", value: "Lost Sheep" });
  questEntry(ctx, "Lost Sheep").status = "expired";
  ctx.recorder.madeAvailable.length = 0;
  assert.equal(apply({ type: "quest-init", operator: "set", value: "Lost Sheep" }).status, "applied");
  assert.equal(status(ctx), "available");
  assert.deepEqual(ctx.recorder.madeAvailable, ["Lost Sheep"]);
  assert.deepEqual(ctx.state.quests["Lost Sheep"]!.availableAt, { tick: 0, location: "Old Mill" });
  assert.match(ctx.recorder.quests.at(-1)!.reason, /offered again/);
});

test("resolutions quest-progress: marks the main objective done; an accepted quest is completed", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "quest-init", operator: "set", value: "Lost Sheep" });
  assert.equal(apply({ type: "quest-progress", questId: "Lost Sheep" }).status, "applied");
  assert.equal(status(ctx), "available", "not accepted yet: stays available");
  assert.equal(ctx.state.quests["Lost Sheep"]!.mainObjectiveDone, true);
  questEntry(ctx, "Lost Sheep").status = "accepted";
  assert.equal(apply({ type: "quest-progress", questId: "Lost Sheep" }).status, "applied");
  assert.equal(status(ctx), "completed");
});

for (const from of ["hidden", "available", "accepted", "abandoned", "rejected", "expired"] as const) {
  test(`spec 3 quest-complete moves ${from} to completed`, async () => {
    const { ctx, apply } = await effectBench();
    questEntry(ctx, "Lost Sheep").status = from;
    assert.equal(apply({ type: "quest-complete", questId: "Lost Sheep" }).status, "applied");
    assert.equal(status(ctx), "completed");
    assert.deepEqual(ctx.recorder.quests.at(-1), {
      quest: "Lost Sheep",
      from,
      to: "completed",
      reason: "quest-complete by test_trigger",
    });
  });
}

test("quest effects naming an unknown quest change nothing", async () => {
  const { ctx, apply } = await effectBench();
  for (const effect of [
    { type: "quest-progress", questId: "Nope" },
    { type: "quest-complete", questId: "Nope" },
    { type: "quest-next-step-set", questId: "Nope", text: "x", source: "objective" },
    { type: "quest-next-step-clear", questId: "Nope" },
    { type: "quest-objective-reveal", questId: "Nope", objectiveId: "a" },
  ]) {
    assert.equal(apply(effect).status, "unchanged");
  }
  assert.deepEqual(ctx.state.quests, {});
});
