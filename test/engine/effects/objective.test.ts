import assert from "node:assert/strict";
import { test } from "node:test";
import { effectBench } from "../helpers.ts";

const objectives = {
  quests: {
    "Lost Sheep": {
      objectives: {
        find: { id: "find", text: "Find the flock.", status: "hidden" },
        gate: { id: "gate", text: "Mend the gate.", status: "hidden" },
        pen: { id: "pen", text: "Pen them.", status: "hidden" },
      },
    },
  },
};

test("resolutions quest-objective-reveal: the objective becomes active and the quest's next step its text", async () => {
  const { ctx, apply } = await effectBench(objectives);
  assert.equal(
    apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "find" }).status,
    "applied",
  );
  const quest = ctx.state.quests["Lost Sheep"]!;
  assert.equal(quest.objectives.find, "active");
  assert.deepEqual(quest.nextStep, { text: "Find the flock.", source: "objective" });
  assert.equal(quest.activeObjectiveId, "find");
  assert.equal(
    apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "find" }).status,
    "unchanged",
  );
});

test("resolutions quest-objective-complete: completed, next step moves to the next active objective", async () => {
  const { ctx, apply } = await effectBench(objectives);
  apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "find" });
  apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "pen" });
  apply({ type: "quest-objective-complete", questId: "Lost Sheep", objectiveId: "find" });
  const quest = ctx.state.quests["Lost Sheep"]!;
  assert.equal(quest.objectives.find, "completed");
  assert.deepEqual(quest.nextStep, { text: "Pen them.", source: "objective" });
  assert.equal(quest.activeObjectiveId, "pen");
});

test("resolutions quest-objective-complete: with no active objective left, the next step is cleared", async () => {
  const { ctx, apply } = await effectBench(objectives);
  apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "gate" });
  const trace = apply({ type: "quest-objective-complete", questId: "Lost Sheep", objectiveId: "gate" });
  assert.match(trace.note!, /next step cleared/);
  assert.equal(ctx.state.quests["Lost Sheep"]!.nextStep, null);
  assert.equal(
    apply({ type: "quest-objective-complete", questId: "Lost Sheep", objectiveId: "gate" }).status,
    "unchanged",
  );
});

test("an unknown objective changes nothing", async () => {
  const { ctx, apply } = await effectBench(objectives);
  assert.match(
    apply({ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "ram" }).note!,
    /no objective "ram"/,
  );
  assert.deepEqual(ctx.state.quests, {});
});
