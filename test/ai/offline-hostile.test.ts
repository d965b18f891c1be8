import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isAiError } from "../../src/ai/errors.ts";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { World } from "../../src/world/schema/index.ts";
import { cpuMsSince } from "../helpers/cpu.ts";
import { HARBOR, narrationRequest, storyOf } from "./offline-helpers.ts";

/**
 * Requests a host (or a broken cassette) may send: missing fields, wrong
 * types, huge lists and strings. The provider answers or throws an AiError;
 * never a TypeError, never a hang.
 */

const ai = createOfflineProvider(HARBOR);

async function noCrash<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    assert.ok(isAiError(error), `not an AiError: ${(error as Error)?.stack ?? error}`);
    return undefined;
  }
}

const odd: unknown[] = [
  undefined,
  null,
  0,
  "text",
  [],
  {},
  { text: 42, places: "nope", npcsPresent: [null, 3], position: null },
  { scene: null, actions: "walk", outcomes: [1, null], instructions: [{}], event: "Storm Night" },
  { questions: [null, { kind: "story" }, { query: 7 }], actions: [null], players: "all" },
  { event: { beats: null, activeTurns: "many" }, summarise: "yes", journal: [null] },
  Object.create(null),
];

describe("offline provider: hostile requests", () => {
  it("malformed requests of every shape get an answer", async () => {
    for (const request of odd) {
      const intent = await noCrash(() => ai.classify(request as never));
      assert.ok(intent === undefined || typeof intent.intent === "string");
      const story = await noCrash(() => ai.narrate(request as never));
      assert.ok(story === undefined || typeof story.text === "string");
      const verdicts = await noCrash(() => ai.judge(request as never));
      assert.ok(verdicts === undefined || Array.isArray(verdicts));
      const vectors = await noCrash(() => ai.embed!(request as never));
      assert.ok(vectors === undefined || Array.isArray(vectors));
    }
  });

  it("a narration with nothing in it still says something", async () => {
    const { text } = await ai.narrate({} as never);
    assert.ok(text.length > 0);
  });

  it("huge lists and strings are bounded", async () => {
    const huge = "salt ".repeat(200_000);
    const request = narrationRequest({
      actions: Array.from({ length: 10_000 }, () => ({ player: "P", text: huge })),
      instructions: Array.from({ length: 10_000 }, () => storyOf("keeper_rumour")),
      outcomes: Array.from({ length: 100_000 }, (_, i) => ({
        type: "quest" as const,
        actor: null,
        quest: `Q${i} ${huge}`,
        from: "hidden" as const,
        status: "available" as const,
      })),
      summary: huge,
      summarise: Array.from({ length: 10_000 }, (_, i) => ({ tick: i, text: huge })),
      journal: Array.from({ length: 10_000 }, () => ({ quest: "Q", status: "accepted", nextStep: huge })),
    });
    request.scene.npcsPresent = Array.from({ length: 10_000 }, (_, i) => ({ name: `N${i}`, info: huge }));
    request.scene.recentStory = Array.from({ length: 10_000 }, () => huge);
    const started = process.cpuUsage();
    const answer = await ai.narrate(request);
    assert.ok(cpuMsSince(started) < 5000, `${cpuMsSince(started)} ms of CPU`);
    assert.ok(answer.text.length < 200_000, String(answer.text.length));
    assert.ok(answer.summary!.length <= 1500);

    const verdicts = await ai.judge({
      phase: "state",
      tick: 1,
      questions: Array.from({ length: 2000 }, (_, i) => ({
        trigger: `t${i}`,
        conditionIndex: 0,
        kind: "story" as const,
        query: huge.slice(0, 500),
      })),
      storyText: huge,
      actions: [],
      players: ["P"],
    });
    assert.equal(verdicts.length, 2000);
    assert.ok(verdicts.every((v) => v.passed));
  });

  it("any string as an action, instruction or beat gives an answer (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), async (a, b) => {
        const intent = await ai.classify({
          tick: 1,
          player: "P",
          text: a,
          places: [{ name: b, kind: "location" }],
          position: { realm: "", region: "", location: b, area: "" },
          npcsPresent: [b],
          recentStory: a,
        });
        assert.ok(typeof intent.intent === "string");
        const story = await ai.narrate(
          narrationRequest({
            actions: [{ player: "P", text: a }],
            instructions: [b, `If ${a}, ${b}`],
            // A line of text is no outcome (ignored); data with any strings in it is read, bounded.
            outcomes: [
              a as never,
              { type: "refused", actor: a, act: "move", target: b, why: "unknown-place", place: b },
              { type: "moved", actor: b, how: "travelled", location: a, area: b },
              { type: "followed", actor: a, leader: b },
            ],
            event: { key: "E", title: b, beats: `1. ${a} 2. ${b}`, activeTurns: 1 },
          }),
        );
        assert.ok(typeof story.text === "string");
        const [verdict] = await ai.judge({
          phase: "state",
          tick: 1,
          questions: [{ trigger: "t", conditionIndex: 0, kind: "action", query: a }],
          storyText: b,
          actions: [{ player: "P", text: b }],
          players: ["P"],
        });
        assert.equal(typeof verdict!.passed, "boolean");
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it("a world with missing sections still makes a provider", async () => {
    for (const world of [{}, { npcs: null, locations: [] }, { gameModes: { x: null } }]) {
      const provider = createOfflineProvider(world as unknown as World, { gameMode: "x" });
      const { text } = await provider.narrate(narrationRequest());
      assert.ok(text.length > 0);
    }
  });
});
