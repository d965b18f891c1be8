import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EngineError } from "../../src/engine/errors.ts";
import { SUMMARY_BATCH, SUMMARY_MAX_BATCH, SUMMARY_MAX_CHARS } from "../../src/engine/narration.ts";
import { restoreSession } from "../../src/engine/session.ts";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const story = (query: string, more: Record<string, unknown> = {}) => ({
  conditions: [{ type: "story", query }],
  recurring: true,
  ...more,
});

describe("turn pins (play-tests, dry runs)", () => {
  test("a story pin replaces the narrator call: the text is the story, no narrate call, no verdict", async () => {
    const ai = new DataAi();
    const { session } = await start({}, { ai });
    const before = ai.narrated.length;
    const chunks: string[] = [];
    const r = await session.turn(
      { ...say("look"), pins: { story: "A pinned story." } },
      { onChunk: (c) => chunks.push(c) },
    );
    assert.equal(r.story, "A pinned story.");
    assert.equal(ai.narrated.length, before, "the narrator was not asked");
    assert.deepEqual(chunks, ["A pinned story."], "a host still receives the text as a chunk");
    assert.equal(r.trace.aiCalls.narrate, 0);
    assert.equal(r.trace.aiCalls.total, 1);
    assert.equal(session.state.history.story.at(-1)!.text, "A pinned story.");
  });

  test("a judge pin decides a trigger's AI conditions without asking; other candidates still go to the judge", async () => {
    const ai = new DataAi({ judge: () => true });
    const { session } = await start(
      onlyTriggers({ pinned: story("A fox appears."), asked: story("The bell rings.") }),
      { ai },
    );
    ai.judged.length = 0;
    const r = await session.turn({ ...say("wait"), pins: { judge: { pinned: false } } });
    assert.deepEqual(
      ai.judged.flatMap((j) => j.questions.map((q) => q.trigger)),
      ["asked"],
      "only the unpinned candidate is sent",
    );
    assert.deepEqual(r.fired, ["asked"]);
    const phase = r.trace.phases[1]!;
    assert.deepEqual(phase.judge.pinned, ["pinned"]);
    const pinned = phase.triggers.find((t) => t.trigger === "pinned")!;
    assert.equal(pinned.verdict, "failed");
    assert.equal(pinned.conditions[0]!.pinned, true);
    assert.equal(pinned.conditions[0]!.passed, false);
  });

  test("when every candidate is pinned, no judge call is made", async () => {
    const ai = new DataAi({ judge: () => false });
    const { session } = await start(onlyTriggers({ only: story("A fox appears.") }), { ai });
    ai.judged.length = 0;
    const r = await session.turn({ ...say("wait"), pins: { judge: { only: true } } });
    assert.equal(ai.judged.length, 0);
    assert.deepEqual(r.fired, ["only"]);
    assert.equal(r.trace.aiCalls.judge, 0);
  });

  test("pinned candidates take no place among the maxJudged sent to the judge", async () => {
    const ai = new DataAi({ judge: () => true });
    const { session } = await start(
      onlyTriggers({ a: story("A fox appears."), b: story("The bell rings.") }),
      { ai, maxJudged: 1 },
    );
    ai.judged.length = 0;
    const r = await session.turn({ ...say("wait"), pins: { judge: { a: true } } });
    assert.deepEqual(r.fired, ["a", "b"], "b is sent although a ranks first in map order");
  });

  test("a judge pin naming no trigger is refused with a did-you-mean, and the session is unchanged", async () => {
    const { session } = await start(onlyTriggers({ fox_seen: story("A fox appears.") }));
    const before = session.save();
    await assert.rejects(
      session.turn({ ...say("wait"), pins: { judge: { fox_sen: true } } }),
      (error: unknown) =>
        error instanceof EngineError &&
        error.code === "turn/invalid" &&
        /fox_sen/.test(error.message) &&
        /fox_seen/.test(error.message),
    );
    assert.equal(session.save(), before);
  });

  test("a refused judge pin costs no AI call: the pins are checked before the classifier", async () => {
    const { session, ai } = await start(onlyTriggers({ fox_seen: story("A fox appears.") }));
    const calls = () => ai.classified.length + ai.narrated.length + ai.judged.length;
    const before = calls();
    await assert.rejects(
      session.turn({ ...say("wait"), pins: { judge: { fox_sen: true } } }),
      (error: unknown) => error instanceof EngineError && error.code === "turn/invalid",
    );
    assert.equal(calls(), before);
  });

  for (const [label, pins, pattern] of [
    ["story not a string", { story: 3 }, /pins.story/],
    ["judge an array", { judge: [] }, /pins.judge/],
    ["judge verdict not boolean", { judge: { x: "true" } }, /must be true or false/],
  ] as const) {
    test(`hostile pins are refused: ${label}`, async () => {
      const { session } = await start();
      await assert.rejects(
        session.turn({ ...say("x"), pins: pins as never }),
        (e: unknown) => e instanceof EngineError && e.code === "turn/invalid" && pattern.test(e.message),
      );
    });
  }

  test("a __proto__ judge pin is an own key, not a prototype change", async () => {
    const { session } = await start();
    const pins = JSON.parse('{"judge": {"__proto__": true}}');
    await assert.rejects(session.turn({ ...say("x"), pins }), /__proto__/);
  });
});

describe("the running summary rides on the narration call", () => {
  test(`after ${SUMMARY_BATCH} entries leave the recent window, the request lists them and the answer becomes the summary`, async () => {
    const ai = new DataAi({
      story: (r) => ({
        text: `Story ${r.tick}.`,
        ...(r.summarise ? { summary: `Summary through ${r.summarise.at(-1)!.tick}.` } : {}),
      }),
    });
    const { session } = await start({}, { ai });
    // Story entries: opening (tick 0), then one per turn. The window keeps the last 3.
    // The request of tick t sees entries 0..t-1, so the first batch is full at tick SUMMARY_BATCH + 3.
    for (let i = 1; i <= SUMMARY_BATCH + 4; i++) await session.turn(say(`act ${i}`));
    const asked = ai.narrated.filter((r) => r.summarise !== null);
    assert.equal(asked.length, 1, "asked once, when the batch was full");
    const request = asked[0]!;
    assert.deepEqual(
      request.summarise!.map((s) => s.tick),
      [0, 1, 2, 3],
    );
    assert.equal(request.summary, "", "no summary before the first");
    assert.deepEqual(session.state.summary, { text: "Summary through 3.", upTo: 3 });
    const next = ai.narrated.at(-1)!;
    assert.equal(next.summary, "Summary through 3.");
    assert.ok(
      next.scene.recentStory.every((s) => !["Story 1.", "Story 2.", "Story 3."].includes(s)),
      "summarised entries leave the scene",
    );
  });

  test("the narrator sees every entry since the summary, so nothing falls between summary and window", async () => {
    const ai = new DataAi({ story: (r) => `Story ${r.tick}.` }); // never summarises
    const { session } = await start({}, { ai });
    for (let i = 1; i <= 6; i++) await session.turn(say(`act ${i}`));
    let last = ai.narrated.at(-1)!;
    assert.equal(last.scene.recentStory.length, 6, "opening + ticks 1..5, though only 3 are recent");
    assert.equal(last.summarise, null, "3 entries wait: not yet a batch");
    await session.turn(say("act 7"));
    last = ai.narrated.at(-1)!;
    assert.equal(last.scene.recentStory.length, 7);
    assert.deepEqual(
      last.summarise!.map((s) => s.text),
      last.scene.recentStory.slice(0, 4),
      "the entries to summarise are the first ones of the scene's story",
    );
  });

  test(`a provider that never summarises is sent at most ${SUMMARY_MAX_BATCH} entries, and the summary is cut at ${SUMMARY_MAX_CHARS} characters`, async () => {
    let answer = false;
    const ai = new DataAi({
      story: (r) => ({ text: `S${r.tick}`, ...(answer && r.summarise ? { summary: "x".repeat(9000) } : {}) }),
    });
    const { session } = await start({}, { ai });
    for (let i = 1; i <= SUMMARY_MAX_BATCH + 8; i++) await session.turn(say("go"));
    assert.equal(ai.narrated.at(-1)!.summarise!.length, SUMMARY_MAX_BATCH);
    answer = true;
    await session.turn(say("go"));
    assert.equal(session.state.summary.text.length, SUMMARY_MAX_CHARS);
    assert.equal(session.state.summary.upTo, SUMMARY_MAX_BATCH - 1);
  });

  test("a version 1 save (no summary) restores with an empty summary", async () => {
    const { session } = await start();
    await session.turn(say("x"));
    const file = JSON.parse(session.save());
    delete file.state.summary;
    file.version = 1;
    const resumed = await restoreSession(session.world, JSON.stringify(file), { ai: new DataAi() });
    assert.deepEqual(resumed.state.summary, { text: "", upTo: -1 });
    await resumed.turn(say("y"));
  });
});

describe("ranking AI candidates by embeddings", () => {
  const triggers = onlyTriggers({
    fox: story("A red fox slips through the reeds."),
    bell: story("The mill bell rings out."),
    heron: story("A heron lifts off the water."),
  });
  /** A two-word embedder: [mentions bell, mentions heron]. */
  const embed = async (texts: string[]) =>
    texts.map((t) => [/bell/i.test(t) ? 1 : 0, /heron/i.test(t) ? 1 : 0.01]);

  test("with more candidates than maxJudged, the engine embeds once and sends the closest", async () => {
    const ai = Object.assign(new DataAi({ story: "The bell clangs.", judge: () => true }), {
      embedded: [] as string[][],
      async embed(texts: string[]) {
        this.embedded.push(texts);
        return embed(texts);
      },
    });
    const { session } = await start(triggers, { ai, maxJudged: 1 });
    ai.embedded.length = 0;
    const r = await session.turn(say("listen"));
    const phase = r.trace.phases[1]!;
    assert.equal(phase.judge.ranking, "embedding");
    assert.deepEqual(phase.judge.sent, ["bell"]);
    assert.equal(ai.embedded.length, 1);
    assert.equal(ai.embedded[0]!.length, 2 + 3, "story, actions, and one query per candidate");
    assert.equal(r.trace.aiCalls.embed, 1);
    assert.equal(r.trace.aiCalls.total, 3, "embedding calls are counted apart");
  });

  test("with no more candidates than maxJudged, ranking decides nothing and nothing is embedded", async () => {
    let calls = 0;
    const ai = Object.assign(new DataAi({ judge: () => true }), {
      async embed(texts: string[]) {
        calls++;
        return embed(texts);
      },
    });
    const { session } = await start(triggers, { ai, maxJudged: 20 });
    const r = await session.turn(say("listen"));
    assert.equal(calls, 0);
    assert.equal(r.trace.phases[1]!.judge.ranking, "lexical");
  });

  test("a failing or malformed embedding answer falls back to lexical ranking with a notice", async () => {
    for (const bad of [
      async () => {
        throw new Error("embedding server down");
      },
      async () => [[1, 0]],
    ]) {
      const ai = Object.assign(new DataAi({ story: "The bell clangs.", judge: () => true }), { embed: bad });
      const { session } = await start(triggers, { ai, maxJudged: 1 });
      const r = await session.turn(say("listen"));
      assert.equal(r.trace.phases[1]!.judge.ranking, "lexical");
      assert.ok(r.logs.some((l) => l.type === "notice" && /embeddings failed/.test(l.message)));
      assert.equal(r.trace.phases[1]!.judge.sent.length, 1);
    }
  });
});

test("a move that was asked for and did not happen reaches the narrator as an outcome", async () => {
  const ai = new DataAi({ intent: { intent: "travel", target: "Atlantis" } });
  const { session } = await start({}, { ai });
  await session.turn(say("walk to Atlantis"));
  const outcomes = ai.narrated.at(-1)!.outcomes;
  assert.ok(
    outcomes.some((o) => o.type === "refused" && o.why === "unknown-place" && o.place === "Atlantis"),
    JSON.stringify(outcomes),
  );
});

test("the narration request carries the journal and the party's next step", async () => {
  const ai = new DataAi();
  const { session } = await start(
    {
      triggers: {
        start_sheep: {
          name: "start_sheep",
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "party-next-step-set", text: "Find the sheep.", source: "objective" },
          ],
        },
      },
    },
    { ai },
  );
  await session.turn(say("look"));
  assert.deepEqual(ai.narrated.at(-1)!.journal, [], "the quest appears in the state phase, after narration");
  assert.equal(ai.narrated.at(-1)!.partyNextStep, null);
  await session.turn(say("look again"));
  const request = ai.narrated.at(-1)!;
  assert.deepEqual(request.journal, [{ quest: "Lost Sheep", status: "available", nextStep: null }]);
  assert.equal(request.partyNextStep, "Find the sheep.");
});
