import assert from "node:assert/strict";
import { test } from "node:test";
import { scriptCheck } from "../../src/engine/conditions/evaluate.ts";
import type { JsonObject, ScriptCall } from "../../src/engine/ports.ts";
import { contentWords } from "../../src/engine/relevance.ts";
import { createSession, restoreSession } from "../../src/engine/session.ts";
import { loadWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { readWalkthrough, type WalkthroughStep } from "../helpers/walkthrough.ts";
import { DataAi, DataRunner, type ScriptBehaviour } from "./helpers.ts";

/**
 * Plays the main quest of the example world (examples/harbor.world.json) to
 * completion with the walkthrough's commands (examples/harbor.walkthrough.json),
 * a data-driven AI and an in-test ScriptRunner that implements the world's
 * three scripts (the real sandbox comes later).
 */

const walkthrough = readWalkthrough();

/** The behaviour of each scripted trigger, as the world's script text describes it, using the real check(). */
const scripts: Record<string, ScriptBehaviour> = {
  fog_warning: (call) => {
    const check = (condition: object) => scriptCheck(condition, call.snapshot, call.storage);
    const hurt = check({ type: "player-resource", resource: "health", operator: "lessThan", value: 10 });
    const onCoast = check({ type: "party-region", operator: "equals", value: "Gull Coast" });
    return { skip: !hurt && !onCoast };
  },
  count_lighthouse_visits: (call) => {
    const storage = { ...call.storage };
    const effects = [...call.effects];
    const tick = scriptCheck({ type: "game-tick" }, call.snapshot, storage) as number;
    const last = typeof storage.lighthouse_last_tick === "number" ? storage.lighthouse_last_tick : -2;
    if (tick - last > 1) {
      storage.lighthouse_visits =
        (typeof storage.lighthouse_visits === "number" ? storage.lighthouse_visits : 0) + 1;
      if (storage.lighthouse_visits === 2) {
        effects.push({ type: "story", instruction: "The gulls know them now." });
        effects.push({ type: "player-resource", resource: "resolve", operator: "add", value: 1 });
      }
    }
    storage.lighthouse_last_tick = tick;
    return {
      storage,
      effects,
      logs: [{ level: "log", message: `lighthouse visits: ${storage.lighthouse_visits}` }],
    };
  },
  dawn_after_storm: (call: ScriptCall) => {
    const triggers: JsonObject = { ...call.triggers };
    delete triggers.fog_warning;
    triggers.lighthouse_haven = {
      name: "lighthouse_haven",
      conditions: [
        { type: "party-location", operator: "equals", value: "Old Lighthouse" },
        { type: "player-resource", resource: "resolve", operator: "lessThan", value: 10 },
      ],
      effects: [{ type: "player-resource", resource: "resolve", operator: "add", value: 1 }],
      recurring: true,
    };
    return { triggers, logs: [{ level: "log", message: "fog_warning retired, lighthouse_haven added" }] };
  },
};

/** A lexical judge: a question passes when the text holds every content word of its query but "player". */
function lexicalJudge(query: string, text: string): boolean {
  const words = contentWords(text);
  return [...contentWords(query)].filter((w) => w !== "player").every((w) => words.has(w));
}

function harborAi(steps: WalkthroughStep[]) {
  const stepAt = (tick: number) => steps[tick - 1];
  return new DataAi({
    intent: (r) => {
      const step = steps.find((s) => s.command === r.text)!;
      return step.target === undefined
        ? { intent: step.intent }
        : { intent: step.intent, target: step.target };
    },
    story: (r) => {
      const text = r.opening ? "Fog on the pier." : `You ${stepAt(r.tick)?.command ?? "wait"}.`;
      // This narrator settles Storm Night once it has been active for three turns.
      return r.event && r.event.activeTurns >= 3
        ? { text, eventVerdict: "completed" }
        : { text, eventVerdict: "neither" };
    },
    judge: ({ question, request }) =>
      lexicalJudge(
        question.query,
        question.kind === "action" ? request.actions.map((a) => a.text).join(" ") : request.storyText,
      ),
  });
}

async function harborWorld() {
  const result = validateWorld(
    await loadWorld(new URL("../../examples/harbor.world.json", import.meta.url).pathname),
  );
  assert.equal(result.errorCount, 0, result.diagnostics.map((d) => d.message).join("\n"));
  return result.world!;
}

test("the example world's main quest plays to completion with the walkthrough's commands", async () => {
  const world = await harborWorld();
  const runner = new DataRunner(scripts);
  const session = await createSession(world, {
    storyStart: walkthrough.storyStart,
    players: [walkthrough.player],
    ai: harborAi(walkthrough.steps),
    scripts: runner,
    seed: 7,
    validate: false,
  });
  assert.deepEqual(session.opening!.fired, [], "tick 0: every story-bearing trigger waits for game-tick > 0");
  assert.equal(session.state.position.area, "Pier End");
  for (const [i, step] of walkthrough.steps.entries()) {
    const result = await session.turn({ actions: [{ player: "Isobel Carrow", text: step.command }] });
    assert.deepEqual(result.fired, step.fired, `tick ${i + 1}: ${step.command}`);
    assert.ok(!result.logs.some((l) => l.type === "trigger-script-error"), JSON.stringify(result.logs));
  }
  const state = session.state;
  for (const [quest, status] of Object.entries(walkthrough.expect.quests))
    assert.equal(state.quests[quest]!.status, status, quest);
  for (const [key, value] of Object.entries(walkthrough.expect.storage))
    assert.deepEqual(state.storage[key], value, key);
  assert.equal(state.quests["The Keeper's Debt"]!.objectives.light_beacon, "completed");
  assert.deepEqual(state.triggerEdits.deleted, ["fog_warning"], "dawn_after_storm's script edit was kept");
  assert.deepEqual(state.triggerEdits.added, ["lighthouse_haven"]);

  // The epilogue (docs/example-world.md): Storm Night completes at tick 13, mara_at_dawn fires at tick 14.
  const t13 = await session.turn({
    actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
  });
  assert.equal(t13.trace.event?.result, "completed");
  assert.equal(session.state.storage.storm_weathered, true);
  const considered = t13.trace.phases[1]!.triggers.map((t) => t.trigger);
  assert.ok(considered.includes("lighthouse_haven"), "the script-added trigger is live from the next turn");
  const t14 = await session.turn({
    actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
  });
  assert.ok(t14.fired.includes("mara_at_dawn"), t14.fired.join(", "));
  assert.ok(session.state.partyNextStep !== null);

  // And the whole game survives a save and restore.
  const resumed = await restoreSession(world, session.save(), {
    ai: harborAi(walkthrough.steps),
    scripts: new DataRunner(scripts),
    validate: false,
  });
  assert.equal(resumed.save(), session.save());
});
