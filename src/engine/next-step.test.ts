import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { World } from "../world/schema/index.ts";
import { nextStepOf } from "./next-step.ts";
import type { QuestState, SessionState } from "./state.ts";

const world = JSON.parse(
  readFileSync(new URL("../../examples/harbor.world.json", import.meta.url), "utf8"),
) as World;

function quest(status: QuestState["status"], objectives: QuestState["objectives"], next: string | null) {
  return {
    status,
    transitions: [],
    objectives,
    activeObjectiveId: null,
    nextStep: next === null ? null : { text: next, source: "objective" as const },
    mainObjectiveDone: false,
    availableAt: null,
  };
}

function state(quests: Record<string, QuestState>, party: string | null): SessionState {
  return {
    quests,
    partyNextStep: party === null ? null : { text: party, source: "objective" },
  } as unknown as SessionState;
}

test("the party's step first, then an accepted quest's, then an available one's; null when none", () => {
  const keeper = quest("accepted", { find_mara: "completed", reach_lighthouse: "active" }, "Travel on.");
  const bell = quest("available", { find_clapper: "active" }, "Find the clapper.");
  assert.equal(
    nextStepOf(state({ "The Tongueless Bell": bell, "The Keeper's Debt": keeper }, "Go."), world),
    "Go.",
  );
  assert.equal(
    nextStepOf(state({ "The Tongueless Bell": bell, "The Keeper's Debt": keeper }, null), world),
    "Travel on.",
  );
  assert.equal(nextStepOf(state({ "The Tongueless Bell": bell }, null), world), "Find the clapper.");
  const done = quest("completed", { light_beacon: "completed" }, "Light it.");
  assert.equal(nextStepOf(state({ "The Keeper's Debt": done }, "  "), world), null);
});

test("a step naming an objective already completed is never next (issue 14 item 5)", () => {
  // arrive_lighthouse completed the journey; a party step a trigger set still names it.
  const keeper = quest(
    "accepted",
    { find_mara: "completed", reach_lighthouse: "completed", climb_stairwell: "active" },
    "Climb the lighthouse stairwell.",
  );
  const stale = "travel to the Old Lighthouse on the Gull Coast";
  assert.equal(
    nextStepOf(state({ "The Keeper's Debt": keeper }, stale), world),
    "Climb the lighthouse stairwell.",
  );
  // A step that only shares a short start with a done objective is still told.
  assert.equal(nextStepOf(state({ "The Keeper's Debt": keeper }, "Travel."), world), "Travel.");
});

test("quests and objectives the world does not have, and hostile keys, are read safely", () => {
  const odd = quest("accepted", { __proto__: "completed", ghost: "completed" } as never, "Go on.");
  const s = state({ "No Such Quest": odd, constructor: odd } as never, null);
  assert.equal(nextStepOf(s, world), "Go on.");
  assert.equal(nextStepOf(state({}, null), { ...world, quests: {} } as World), null);
});
