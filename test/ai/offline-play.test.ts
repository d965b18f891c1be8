import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { createSession, restoreSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { loadWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";

/**
 * The key test of the offline provider: the example world's main quest,
 * played through the real engine and the real script sandbox, with the
 * offline provider answering everything (intent, narration, judge, event
 * verdicts, summaries: no pins). The player types only the walkthrough's
 * commands (examples/harbor.walkthrough.json).
 *
 * Each turn fires exactly the walkthrough's triggers: the offline judge does
 * not fire the colour trigger slade_threatens at the Counting House (its
 * query shares only "Corvin" and "Slade" with the narration: 2/4 < 0.75), so
 * the sets are equal, not merely a superset.
 */

const walkthrough = readWalkthrough();

const sandbox = createSandbox();
after(() => sandbox.close());

async function harborWorld() {
  const result = validateWorld(
    await loadWorld(new URL("../../examples/harbor.world.json", import.meta.url).pathname),
  );
  assert.equal(result.errorCount, 0);
  return result.world!;
}

describe("the offline provider plays the example world", () => {
  it("the main quest from the first command to Mara's thanks at dawn", async () => {
    const world = await harborWorld();
    const ai = createOfflineProvider(world);
    const session = await createSession(world, {
      storyStart: walkthrough.storyStart,
      players: [walkthrough.player],
      ai,
      scripts: sandbox,
      seed: 7,
      validate: false,
    });
    const opening = session.opening!;
    assert.deepEqual(opening.fired, []);
    assert.ok(opening.story.startsWith("First light, and the fog has not decided whether to leave."));
    assert.ok(opening.story.includes("Pier End, Brinewick Docks."));

    const stories: string[] = [];
    const traced = [opening.trace.aiCalls];
    for (const [i, step] of walkthrough.steps.entries()) {
      const tick = i + 1;
      const result = await session.turn({ actions: [{ player: "Isobel Carrow", text: step.command }] });
      stories.push(result.story);
      traced.push(result.trace.aiCalls);
      assert.equal(result.trace.intent.source, "classifier", `tick ${tick}: not pinned`);
      assert.equal(result.intent?.intent, step.intent, `tick ${tick}: ${step.command}`);
      assert.equal(result.intent?.target, step.target, `tick ${tick}: ${step.command}`);
      assert.deepEqual(result.fired, step.fired, `tick ${tick}: ${step.command}`);
      assert.ok(!result.logs.some((l) => l.type === "trigger-script-error"), JSON.stringify(result.logs));
      assert.equal(result.trace.aiCalls.narrate, 1);
      // Storm Night runs from tick 10: beats 1-3 are told and the offline narrator answers "neither".
      if (tick >= 10) assert.equal(result.trace.event?.verdict, "neither", `tick ${tick}`);
    }

    // What the player read along the way (each story comes from the offline narrator).
    assert.equal(stories[0]!.split("\n\n")[0], "You walk to the Gutted Eel.");
    assert.ok(stories[1]!.includes("She tells you herself: her father Ansel kept the Old Lighthouse"));
    assert.ok(stories[5]!.includes("Ansel borrowed forty silver from Corvin Slade"), stories[5]);
    assert.ok(stories[7]!.includes("says his men hung the brass lamp key back on its hook"), stories[7]);
    assert.ok(stories[11]!.includes("The wick takes, the great lens catches fire"), stories[11]);
    // Back in the Lamp Room during the storm (tick 11): the room is described again, not only "You go to the Lamp Room."
    assert.ok(stories[10]!.includes("The glass-walled crown of the tower"), stories[10]);

    const state = session.state;
    for (const [quest, status] of Object.entries(walkthrough.expect.quests))
      assert.equal(state.quests[quest]!.status, status, quest);
    assert.equal(state.quests["The Keeper's Debt"]!.status, "completed");
    for (const [key, value] of Object.entries(walkthrough.expect.storage))
      assert.deepEqual(state.storage[key], value, key);
    assert.deepEqual(state.triggerEdits.deleted, ["fog_warning"], "the real sandbox ran dawn_after_storm");
    assert.deepEqual(state.triggerEdits.added, ["lighthouse_haven"]);

    // The player keeps playing: Storm Night (started at tick 9) gets its fourth and last beat at
    // tick 13, the offline narrator answers "completed", and mara_at_dawn fires at tick 14.
    assert.equal(state.events["Storm Night"]?.status, "active");
    const t13 = await session.turn({
      actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
    });
    traced.push(t13.trace.aiCalls);
    assert.equal(t13.trace.event?.verdict, "completed");
    assert.equal(t13.trace.event?.result, "completed");
    assert.ok(!t13.story.includes("Either the lamp burns"), "an either-or beat is never told as prose");
    assert.equal(session.state.storage.storm_weathered, true);
    const t14 = await session.turn({ actions: [{ player: "Isobel Carrow", text: "wait for the dawn" }] });
    traced.push(t14.trace.aiCalls);
    assert.ok(t14.fired.includes("mara_at_dawn"), t14.fired.join(", "));
    assert.ok(t14.story.includes("a washed, pale dawn over the Gull Coast"), t14.story);
    const t15 = await session.turn({
      actions: [{ player: "Isobel Carrow", text: "walk to the Gutted Eel" }],
    });
    traced.push(t15.trace.aiCalls);
    assert.ok(t15.story.includes("She says her father would have liked you"), t15.story);
    // mara_at_dawn set the party's next step in t14's state phase, after its narration: the
    // results carry it from that turn on, and no story names a next step (issue 14 item 5).
    const after = "Brinewick has other debts: visit Saltlight Temple, or the Widows' Cairn on Fenmoor Downs.";
    assert.equal(t14.next, after);
    assert.equal(t15.next, after);
    assert.doesNotMatch(`${t14.story}\n${t15.story}`, /Next:/);

    // Summaries rode on the narration calls.
    const summary = session.state.summary.text;
    assert.ok(summary.startsWith("First light, and the fog has not decided whether to leave."), summary);
    assert.ok(summary.includes("You read the keeper's logbook."), summary);

    // The game survives a save and restore with the same provider, and the offline provider is deterministic:
    // a second game with the same seed and commands tells the same story.
    const resumed = await restoreSession(world, session.save(), { ai, scripts: sandbox, validate: false });
    assert.equal(resumed.save(), session.save());
    const again = await createSession(world, {
      storyStart: walkthrough.storyStart,
      players: [walkthrough.player],
      ai: createOfflineProvider(world),
      scripts: sandbox,
      seed: 7,
      validate: false,
    });
    for (const [i, step] of walkthrough.steps.entries()) {
      const result = await again.turn({ actions: [{ player: "Isobel Carrow", text: step.command }] });
      assert.equal(result.story, stories[i], `tick ${i + 1}`);
    }
    // The provider's usage counts exactly the calls the engine's traces report for the first game.
    const calls = traced.reduce((n, t) => n + t.total + t.embed, 0);
    assert.equal(ai.usage().calls, calls);
    assert.equal(ai.usage().promptTokens, 0);
    assert.ok(ai.usage().completionTokens > 0);
  });
});
