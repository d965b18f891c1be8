import assert from "node:assert/strict";
import { test } from "node:test";
import { effectBench } from "../helpers.ts";

test("quest-next-step-set and quest-next-step-clear", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "quest-next-step-set", questId: "Lost Sheep", text: "Ask Ada.", source: "narrative-event" });
  assert.deepEqual(ctx.state.quests["Lost Sheep"]!.nextStep, { text: "Ask Ada.", source: "narrative-event" });
  assert.equal(apply({ type: "quest-next-step-clear", questId: "Lost Sheep" }).status, "applied");
  assert.equal(ctx.state.quests["Lost Sheep"]!.nextStep, null);
  assert.equal(apply({ type: "quest-next-step-clear", questId: "Lost Sheep" }).status, "unchanged");
});

test("party-next-step-set and party-next-step-clear", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "party-next-step-set", text: "Head south.", source: "objective" });
  assert.deepEqual(ctx.state.partyNextStep, { text: "Head south.", source: "objective" });
  apply({ type: "party-next-step-clear" });
  assert.equal(ctx.state.partyNextStep, null);
  assert.equal(apply({ type: "party-next-step-clear" }).status, "unchanged");
});

test("next-step effects need a known source", async () => {
  const { apply } = await effectBench();
  assert.equal(apply({ type: "party-next-step-set", text: "x", source: "quest" }).reason, "malformed");
});

test("story: the instruction waits in the pending list for the next narration", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "story", instruction: "Mention the bells." });
  assert.deepEqual(ctx.state.pendingInstructions, ["Mention the bells."]);
});
