import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { applyPatch } from "../patch.ts";
import type { WorldPatch } from "../rule.ts";
import { reachability } from "./reachability.ts";

const BASE = readFileSync(new URL("../../../test/fixtures/base.world.json", import.meta.url), "utf8");
const reach = (patch: WorldPatch) =>
  reachability(applyPatch(JSON.parse(BASE), patch) as Record<string, unknown>);
const trigger = (name: string, conditions: unknown[], effects: unknown[], script?: string) => ({
  [name]: { name, conditions, effects, ...(script === undefined ? {} : { script }) },
});
const GOAT = {
  name: "Stray Goat",
  questSource: "Ada Reed",
  questStatement: "A goat is loose.",
  mainObjective: "Get the goat down.",
  completionCondition: "The goat is back in the yard.",
  detailType: "detailed",
  questLocation: "Old Mill",
};
const fires = (result: ReturnType<typeof reach>, key: string) =>
  [...result.fires].some((actor) => actor.key === key && actor.kind === "trigger");

describe("reachability", () => {
  test("a chain written against map order still resolves", () => {
    const result = reach({
      triggers: {
        ...trigger(
          "third",
          [{ type: "read-boolean", key: "b", operator: "equals", value: true }],
          [{ type: "write-string", key: "done", operator: "set", value: "yes" }],
        ),
        ...trigger(
          "second",
          [{ type: "read-number", key: "a", operator: "equals", value: 2 }],
          [{ type: "write-boolean", key: "b", operator: "set", value: true }],
        ),
        ...trigger("first", [], [{ type: "write-number", key: "a", operator: "set", value: 2 }]),
      },
    });
    assert.ok(["first", "second", "third"].every((key) => fires(result, key)));
    assert.ok(result.facts.readable("done").string.has("yes"));
    assert.equal(result.verdicts.size, 0);
  });

  test("the engine makes an objective trigger for a detailed quest: it completes once accepted", () => {
    const result = reach({
      quests: { "Stray Goat": GOAT },
      triggers: trigger("start_goat", [], [{ type: "quest-init", operator: "set", value: "Stray Goat" }]),
    });
    assert.deepEqual([...result.evaluator.questStatuses("Stray Goat")].sort(), [
      "abandoned",
      "accepted",
      "available",
      "completed",
      "expired",
      "hidden",
      "rejected",
    ]);
    // The base world's basic quest has no completion.
    assert.equal(result.evaluator.completedPossible("Lost Sheep"), false);
  });

  test("an objective trigger the world defines replaces the engine's", () => {
    const result = reach({
      quests: { "Stray Goat": GOAT },
      triggers: {
        ...trigger("start_goat", [], [{ type: "quest-init", operator: "set", value: "Stray Goat" }]),
        ...trigger(
          "Stray Goat_objective",
          [{ type: "game-tick", operator: "lessThan", value: 0 }],
          [{ type: "quest-progress", questId: "Stray Goat" }],
        ),
      },
    });
    assert.equal(result.evaluator.completedPossible("Stray Goat"), false);
  });

  test("a narrative event's completion applies only once it can start", () => {
    const events = {
      narrativeEvents: {
        Storm: {
          title: "Storm",
          beats: "Rain.",
          onCompleteEffects: [{ type: "write-boolean", key: "storm_over", operator: "set", value: true }],
        },
      },
    };
    assert.equal(reach(events).facts.written("storm_over", "boolean"), false);
    assert.equal(reach(events).everything.written("storm_over", "boolean"), true);
    const started = reach({
      ...events,
      triggers: trigger("storm", [], [{ type: "narrative-event-start", eventId: "Storm" }]),
    });
    assert.equal(started.facts.written("storm_over", "boolean"), true);
  });

  test("a script it cannot follow, if it can fire, may do anything", () => {
    const wild = reach({ triggers: trigger("wild", [], [], "effects.push(JSON.parse(storage.plan));") });
    assert.ok(wild.facts.availableAll && wild.facts.startedAll && wild.facts.storageAll.number.any);
    const dead = reach({
      triggers: trigger(
        "wild",
        [{ type: "game-tick", operator: "lessThan", value: 0 }],
        [],
        "effects.push(x);",
      ),
    });
    assert.equal(dead.facts.availableAll, false);
    assert.equal(dead.everything.availableAll, true);
  });

  test("startingQuests are available from the start", () => {
    const result = reach({
      quests: { "Stray Goat": GOAT },
      storyStarts: { Morning: { startingQuests: ["Stray Goat"] } },
    });
    assert.equal(result.evaluator.availablePossible("Stray Goat"), true);
  });
});
