import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { contentWords, coverage } from "../../src/engine/relevance.ts";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const story = (query: string, more: Record<string, unknown> = {}) => ({
  conditions: [{ type: "story", query }],
  ...more,
});
const tick = (op: string, value: number) => ({ type: "game-tick", operator: op, value });

describe("resolutions 'Triggers': AI-judged conditions", () => {
  test("go to the judge in ONE batch per phase, only for triggers whose mechanical conditions all passed", async () => {
    const ai = new DataAi({ judge: () => true });
    const { session } = await start(
      onlyTriggers({
        s1: story("The bell rings.", { recurring: true }),
        s2: { conditions: [tick("greaterThan", 5), { type: "story", query: "The bell rings." }] },
        s3: story("A fox appears.", { recurring: true }),
        a1: { recurring: true, conditions: [{ type: "action", query: "The player rings the bell." }] },
      }),
      { ai },
    );
    ai.judged.length = 0;
    const r = await session.turn(say("ring"));
    assert.equal(ai.judged.length, 2, "one call per phase with candidates");
    assert.deepEqual(
      ai.judged.map((j) => j.phase),
      ["planning", "state"],
    );
    assert.deepEqual(
      ai.judged[1]!.questions.map((q) => q.trigger),
      ["s1", "s3"],
      "s2's tick condition failed: not sent",
    );
    assert.equal(ai.judged[1]!.storyText, "Story of tick 1.");
    assert.deepEqual(ai.judged[0]!.actions, [{ player: "Player", text: "ring" }]);
    const s2 = r.trace.phases[1]!.triggers.find((t) => t.trigger === "s2")!;
    assert.equal(s2.candidate, false);
    assert.equal(s2.conditions[1]!.passed, null, "its AI condition was never decided");
    assert.deepEqual(r.fired, ["a1", "s1", "s3"]);
    assert.deepEqual(r.trace.aiCalls, { classify: 1, narrate: 1, judge: 2, embed: 0, total: 4 });
  });
  test("a failed verdict means the trigger does not fire and stays armed", async () => {
    let pass = false;
    const { session } = await start(onlyTriggers({ s: story("The bell rings.") }), {
      ai: new DataAi({ judge: () => pass }),
    });
    const first = await session.turn(say("x"));
    assert.equal(first.trace.phases[1]!.triggers[0]!.verdict, "failed");
    assert.deepEqual(first.fired, []);
    pass = true;
    assert.deepEqual((await session.turn(say("x"))).fired, ["s"]);
  });
  test("a condition the judge does not answer fails (no verdict)", async () => {
    const ai = new DataAi();
    ai.judge = async () => [];
    const { session } = await start(onlyTriggers({ s: story("The bell rings.") }), { ai });
    const r = await session.turn(say("x"));
    const trace = r.trace.phases[1]!.triggers[0]!;
    assert.equal(trace.verdict, "no verdict");
    assert.equal(trace.fired, false);
  });
  test("at most N candidates per phase, ranked by relevance to the story; the rest traced as not among the top N", async () => {
    const { session } = await start(
      onlyTriggers({
        far1: story("A dragon attacks the village.", { recurring: true }),
        close: story("The miller grinds flour at the mill.", { recurring: true }),
        far2: story("Pirates land on the beach.", { recurring: true }),
        half: story("The miller sleeps.", { recurring: true }),
      }),
      {
        ai: new DataAi({ judge: () => true, story: "The miller grinds flour while the mill wheel turns." }),
        maxJudged: 2,
      },
    );
    const r = await session.turn(say("x"));
    const phase = r.trace.phases[1]!;
    assert.deepEqual(phase.judge.sent, ["close", "half"]);
    assert.deepEqual(phase.judge.left, ["far1", "far2"], "equal relevance keeps map order");
    const far1 = phase.triggers.find((t) => t.trigger === "far1")!;
    assert.equal(far1.verdict, "not among the top N");
    assert.equal(far1.fired, false);
    assert.deepEqual(r.fired, ["close", "half"]);
  });
  test("maxJudged 0 sends nothing and makes no judge call", async () => {
    const ai = new DataAi({ judge: () => true });
    const { session } = await start(onlyTriggers({ s: story("x") }), { ai, maxJudged: 0 });
    const r = await session.turn(say("x"));
    assert.equal(ai.judged.length, 0);
    assert.equal(r.trace.aiCalls.total, 2);
  });
  test("the relevance measure is query coverage over content words", () => {
    assert.equal(
      coverage(contentWords("The miller grinds flour"), contentWords("a MILLER who grinds")),
      2 / 3,
    );
    assert.deepEqual([...contentWords("The bells, the BELL and a cat")], ["bell", "cat"]);
    assert.equal(coverage(contentWords(""), contentWords("x")), 0);
  });
  test("a turn makes exactly 2 AI calls plus at most one judge call per phase with candidates", async () => {
    const ai = new DataAi();
    const { session } = await start({}, { ai });
    const r = await session.turn(say("x"));
    assert.deepEqual(r.trace.aiCalls, { classify: 1, narrate: 1, judge: 0, embed: 0, total: 2 });
    assert.equal(ai.classified.length, 1);
    assert.equal(ai.narrated.length, 2, "the opening and this turn");
  });
  test("a failing planning judge (before any story) rejects the turn with ai/failed and leaves the session as it was", async () => {
    const ai = new DataAi();
    ai.judge = async (request) => {
      if (request.tick > 0 && request.phase === "planning") throw new Error("rate limited");
      return [];
    };
    const { session } = await start(
      onlyTriggers({ a: { conditions: [{ type: "action", query: "The player waves." }] } }),
      { ai },
    );
    const before = session.save();
    await assert.rejects(session.turn(say("x")), {
      code: "ai/failed",
      message: /judge failed.*rate limited/,
    });
    assert.equal(session.save(), before);
  });
});

describe("spec 2.2: story conditions are judged against the session history", () => {
  test("the judge gets the summary and the story since it, newest last: a condition met two turns ago still passes", async () => {
    const ai = new DataAi({
      story: (r) => (r.tick === 1 ? "The bell rings over the vale." : `Quiet, tick ${r.tick}.`),
      // The judge passes when any history entry says it: the bell rang on tick 1.
      judge: ({ request }) => (request.history?.entries ?? []).some((e) => /bell rings/.test(e.text)),
    });
    const { session } = await start(
      onlyTriggers({
        s: story("The bell has rung.", {
          conditions: [{ type: "story", query: "The bell has rung." }, tick("greaterThan", 2)],
        }),
      }),
      { ai },
    );
    await session.turn(say("x"));
    await session.turn(say("x"));
    const r = await session.turn(say("x"));
    assert.deepEqual(r.fired, ["s"]);
    const request = ai.judged.at(-1)!;
    assert.deepEqual(
      request.history!.entries.map((e) => e.tick),
      [0, 1, 2, 3],
      "the story since the summary (the opening included), oldest first, this turn's last",
    );
    assert.equal(request.history!.entries.at(-1)!.text, "Quiet, tick 3.");
    assert.equal(request.scene!.position.location, "Old Mill");
  });
});

describe("issue 19 item 5: a failed judge call after the story never voids the turn", () => {
  test("a failing state-phase judge counts as not passed, logs a notice, and the trigger stays armed", async () => {
    const ai = new DataAi({ judge: ({ request }) => request.tick > 0 });
    const real = ai.judge.bind(ai);
    let fail = true;
    ai.judge = async (request) => {
      if (request.tick > 0 && request.phase === "state" && fail) throw new Error("the server failed (500)");
      return real(request);
    };
    const { session } = await start(onlyTriggers({ s: story("x") }), { ai });
    const r = await session.turn(say("x"));
    assert.equal(r.story, "Story of tick 1.", "the story the player read is kept");
    assert.deepEqual(r.fired, []);
    const state = r.trace.phases[1]!;
    assert.match(state.judge.failed!, /500/);
    assert.equal(state.triggers[0]!.verdict, "no verdict");
    assert.ok(
      r.logs.some(
        (l) => l.type === "notice" && /judge failed in the state phase.*not passed/.test(l.message),
      ),
    );
    assert.equal(session.state.tick, 1, "the turn counted");
    fail = false;
    const next = await session.turn(say("x"));
    assert.deepEqual(next.fired, ["s"], "still armed: it fires once the judge answers");
  });
});

describe("resolutions 'Triggers': scope player and effect targets", () => {
  const party = { players: [{ name: "Ann" }, { name: "Bo" }] };
  // No recharge after the turn, so that health shows only the effects.
  const still = { resourceSettings: { health: { rechargeRate: 0 } } };
  const hurt = { type: "player-resource", resource: "health", operator: "subtract", value: 5 };
  const health = (
    s: { state: { party: { name: string; resources: Record<string, { current: number }> }[] } },
    n: string,
  ) => s.state.party.find((c) => c.name === n)!.resources.health!.current;

  test("targets are the players the AI credits for each story/action condition; effects hit only them", async () => {
    const { session } = await start(
      {
        ...still,
        ...onlyTriggers({
          burn: {
            scope: "player",
            conditions: [{ type: "action", query: "touches the stove" }],
            effects: [hurt],
          },
        }),
      },
      { ...party, ai: new DataAi({ judge: () => ({ passed: true, players: ["Bo", "Stranger"] }) }) },
    );
    const r = await session.turn({
      actions: [
        { player: "Ann", text: "wait" },
        { player: "Bo", text: "touch the stove" },
      ],
    });
    assert.deepEqual(r.trace.phases[0]!.triggers[0]!.targets, ["Bo"]);
    assert.equal(health(session, "Ann"), 20);
    assert.equal(health(session, "Bo"), 15);
  });
  test("intersected with the players satisfying every player-level/player-resource/player-traits condition", async () => {
    const { session } = await start(
      {
        ...still,
        ...onlyTriggers({
          weak: {
            scope: "player",
            conditions: [
              { type: "player-resource", resource: "health", operator: "lessThan", value: 18 },
              { type: "story", query: "smoke" },
            ],
            effects: [hurt],
          },
          wound: { conditions: [tick("equals", 1)], effects: [{ ...hurt, target: "satisfyingPlayers" }] },
        }),
      },
      { ...party, ai: new DataAi({ judge: () => true }) },
    );
    // tick 1: "wound" has no player condition, so every player satisfies it
    await session.turn({ actions: [{ player: "Ann", text: "x" }] });
    assert.equal(health(session, "Ann"), 15);
    assert.equal(health(session, "Bo"), 15);
  });
  test("documented extension: an action-text condition credits the players whose own action satisfies it", async () => {
    const { session } = await start(
      {
        ...still,
        ...onlyTriggers({
          swim: {
            scope: "player",
            recurring: true,
            conditions: [{ type: "action-text", operator: "contains", value: "swim" }],
            effects: [hurt],
          },
        }),
      },
      party,
    );
    const r = await session.turn({
      actions: [
        { player: "Ann", text: "I swim" },
        { player: "Bo", text: "I watch" },
      ],
    });
    assert.deepEqual(r.trace.phases[0]!.triggers[0]!.conditions[0]!.players, ["Ann"]);
    assert.equal(health(session, "Ann"), 15);
    assert.equal(health(session, "Bo"), 20);
  });
  test("conditions pass but no player is a target: suppressed and NOT consumed", async () => {
    let credit: string[] = [];
    const { session } = await start(
      {
        ...still,
        ...onlyTriggers({
          burn: { scope: "player", conditions: [{ type: "story", query: "fire" }], effects: [hurt] },
        }),
      },
      { ...party, ai: new DataAi({ judge: () => ({ passed: true, players: credit }) }) },
    );
    const r = await session.turn({ actions: [{ player: "Ann", text: "x" }] });
    const trace = r.trace.phases[1]!.triggers[0]!;
    assert.equal(trace.suppressed, true);
    assert.equal(trace.fired, false);
    assert.deepEqual(
      trace.effects.map((e) => e.reason),
      ["suppressed"],
    );
    assert.deepEqual(session.state.consumed, {});
    credit = ["Ann"];
    assert.deepEqual((await session.turn({ actions: [{ player: "Ann", text: "x" }] })).fired, ["burn"]);
    assert.equal(health(session, "Ann"), 15);
  });
  test("a verdict without a players list credits every player", async () => {
    const { session } = await start(
      {
        ...still,
        ...onlyTriggers({
          burn: { scope: "player", conditions: [{ type: "story", query: "fire" }], effects: [hurt] },
        }),
      },
      { ...party, ai: new DataAi({ judge: () => true }) },
    );
    await session.turn({ actions: [{ player: "Ann", text: "x" }] });
    assert.equal(health(session, "Ann"), 15);
    assert.equal(health(session, "Bo"), 15);
  });
});
