import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { EventVerdict } from "../../src/engine/ports.ts";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const write = (n: number) => ({ type: "write-number", key: `done${n}`, operator: "set", value: n });
const events = (more: Record<string, unknown> = {}) => ({
  narrativeEvents: {
    storm: {
      title: "The Storm",
      beats: "Wind rises; the mill shakes.",
      targetTurns: 2,
      onCompleteEffects: [1, 2, 3, 4, 5, 6, 7].map(write),
    },
    fair: { title: "The Fair", beats: "Stalls and music." },
    ...more,
  },
});
const startAt = (event: string, tick: number, more: Record<string, unknown> = {}) => ({
  conditions: [{ type: "game-tick", operator: "equals", value: tick }],
  effects: [{ type: "narrative-event-start", eventId: event }],
  ...more,
});

function aiWith(verdicts: Record<number, EventVerdict>) {
  return new DataAi({
    story: (r) => ({
      text: `t${r.tick}`,
      ...(r.event && verdicts[r.tick] ? { eventVerdict: verdicts[r.tick] } : {}),
    }),
  });
}

describe("resolutions 'Narrative events'", () => {
  test("statuses start inactive; narrative-event-start makes one active; its beats go to the narrator each active turn", async () => {
    const ai = aiWith({});
    const { session } = await start(
      {
        ...events(),
        ...onlyTriggers({
          go: startAt("fair", 1, {
            conditions: [
              { type: "game-tick", operator: "equals", value: 1 },
              { type: "action-text", operator: "contains", value: "" },
            ],
          }),
        }),
      },
      { ai },
    );
    assert.deepEqual(session.state.events, {});
    await session.turn(say("x"));
    assert.deepEqual(
      session.state.events.fair,
      { status: "active", activeTurns: 1 },
      "started in planning: narrated this turn",
    );
    assert.deepEqual(ai.narrated[1]!.event, {
      key: "fair",
      title: "The Fair",
      beats: "Stalls and music.",
      activeTurns: 0,
    });
    await session.turn(say("y"));
    assert.equal(ai.narrated[2]!.event!.activeTurns, 1);
  });
  test("an event started in the state phase is first narrated the next turn", async () => {
    const ai = aiWith({});
    const { session } = await start({ ...events(), ...onlyTriggers({ go: startAt("fair", 1) }) }, { ai });
    const r = await session.turn(say("x"));
    assert.equal(ai.narrated[1]!.event, null);
    assert.equal(r.trace.event, null);
    assert.deepEqual(session.state.events.fair, { status: "active", activeTurns: 0 });
  });
  test("only one event is active at a time: a second start is ignored (not queued) and traced", async () => {
    const { session } = await start(
      { ...events(), ...onlyTriggers({ a: startAt("fair", 1), b: startAt("storm", 1) }) },
      { ai: aiWith({ 2: "completed" }) },
    );
    const r = await session.turn(say("x"));
    const b = r.trace.phases[1]!.triggers.find((t) => t.trigger === "b")!;
    assert.equal(b.effects[0]!.status, "unchanged");
    assert.match(b.effects[0]!.note!, /"fair" is active; only one event runs at a time/);
    assert.equal(session.state.events.storm, undefined);
    await session.turn(say("y"));
    assert.equal(session.state.events.fair!.status, "completed");
    await session.turn(say("z"));
    assert.equal(session.state.events.storm, undefined, "the ignored start was not queued");
  });
  test("the verdict completed completes it and applies onCompleteEffects outside the per-trigger cap", async () => {
    const { session } = await start(
      { ...events(), ...onlyTriggers({ go: startAt("storm", 1) }) },
      { ai: aiWith({ 2: "completed" }) },
    );
    await session.turn(say("x"));
    const r = await session.turn(say("y"));
    assert.equal(session.state.events.storm!.status, "completed");
    assert.equal(r.trace.event!.result, "completed");
    assert.equal(r.trace.event!.effects.filter((e) => e.status === "applied").length, 7);
    assert.equal(session.state.storage.done7, 7);
  });
  test("the verdict stopped stops it; a stopped event resumes keeping its turn count when started again", async () => {
    const { session } = await start(
      { ...events(), ...onlyTriggers({ go: startAt("fair", 1), again: startAt("fair", 3) }) },
      { ai: aiWith({ 2: "stopped" }) },
    );
    await session.turn(say("1"));
    await session.turn(say("2"));
    assert.deepEqual(session.state.events.fair, { status: "stopped", activeTurns: 1 });
    await session.turn(say("3"));
    assert.deepEqual(session.state.events.fair, { status: "active", activeTurns: 1 });
    await session.turn(say("4"));
    assert.deepEqual(session.state.events.fair, { status: "active", activeTurns: 2 });
  });
  test("neither keeps it active; with targetTurns N it is force-completed after 2N active turns", async () => {
    const { session } = await start(
      { ...events(), ...onlyTriggers({ go: startAt("storm", 1) }) },
      { ai: aiWith({}) },
    );
    await session.turn(say("1"));
    for (const t of [2, 3, 4]) {
      await session.turn(say(String(t)));
      assert.equal(session.state.events.storm!.status, "active", `tick ${t}`);
    }
    const r = await session.turn(say("5"));
    assert.equal(r.trace.event!.result, "forced");
    // The narrator gave no verdict, so the state-phase judge was asked; it said no to both questions.
    assert.equal(r.trace.event!.verdict, "neither");
    assert.deepEqual(session.state.events.storm, { status: "completed", activeTurns: 4 });
  });
  test("issue 19 item 4: without a narrator verdict the state-phase judge is asked; completed wins; a failed judge is a notice", async () => {
    const ai = aiWith({});
    ai.script.judge = ({ question, request }) =>
      question.kind === "event" && request.tick === 4 && question.conditionIndex === 0;
    const { session } = await start({ ...events(), ...onlyTriggers({ go: startAt("fair", 1) }) }, { ai });
    await session.turn(say("1"));
    await session.turn(say("2"));
    const asked = ai.judged.filter((j) => j.phase === "state" && j.tick === 2);
    assert.deepEqual(
      asked[0]!.questions.map((q) => [q.trigger, q.conditionIndex, q.kind]),
      [
        ["narrativeEvents/fair", 0, "event"],
        ["narrativeEvents/fair", 1, "event"],
      ],
    );
    assert.match(asked[0]!.questions[0]!.query, /The Fair.*Stalls and music/);
    const real = ai.judge.bind(ai);
    ai.judge = async (request) => {
      if (request.tick === 3) throw new Error("server failed (500)");
      return real(request);
    };
    const two = await session.turn(say("3"));
    assert.equal(two.trace.event!.verdict, "missing");
    assert.ok(
      two.logs.some(
        (l) => l.type === "notice" && /No verdict came for the narrative event "fair"/.test(l.message),
      ),
    );
    assert.equal(session.state.events.fair!.status, "active");
    const three = await session.turn(say("4"));
    assert.equal(three.trace.event!.verdict, "completed");
    assert.equal(session.state.events.fair!.status, "completed");
  });
  test("a completed event restarts only from a recurring trigger, with its count reset", async () => {
    const { session } = await start(
      {
        ...events(),
        ...onlyTriggers({
          go: startAt("fair", 1),
          once: startAt("fair", 3),
          every: { ...startAt("fair", 4), recurring: true },
        }),
      },
      { ai: aiWith({ 2: "completed" }) },
    );
    await session.turn(say("1"));
    await session.turn(say("2"));
    assert.deepEqual(session.state.events.fair, { status: "completed", activeTurns: 1 });
    const r = await session.turn(say("3"));
    assert.match(
      r.trace.phases[1]!.triggers.find((t) => t.trigger === "once")!.effects[0]!.note!,
      /only a recurring trigger restarts it/,
    );
    await session.turn(say("4"));
    assert.deepEqual(session.state.events.fair, { status: "active", activeTurns: 0 });
  });
  test("narrative-event-status conditions read the event state", async () => {
    const { session } = await start({
      ...events(),
      ...onlyTriggers({
        go: startAt("fair", 1),
        during: {
          conditions: [
            { type: "narrative-event-status", eventId: "fair", operator: "equals", value: "active" },
          ],
          effects: [{ type: "write-boolean", key: "seen", operator: "set", value: true }],
        },
      }),
    });
    await session.turn(say("1"));
    assert.equal(session.state.storage.seen, undefined);
    await session.turn(say("2"));
    assert.equal(session.state.storage.seen, true);
  });
});
