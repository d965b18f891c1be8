import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EngineError } from "../../src/engine/errors.ts";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const world = {
  narrativeEvents: { fair: { title: "The Fair", beats: "Stalls and music." } },
  ...onlyTriggers({
    go: {
      conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
      effects: [{ type: "narrative-event-start", eventId: "fair" }],
    },
  }),
};

describe("the event pin (a game replayed from its record: docs/playtests.md)", () => {
  test("a pinned event verdict decides the active event, with a pinned story and no AI asked", async () => {
    const ai = new DataAi({
      story: (r) => ({ text: `t${r.tick}`, ...(r.event ? { eventVerdict: "neither" } : {}) }),
    });
    const { session } = await start(world, { ai });
    await session.turn(say("x"));
    assert.equal(session.state.events.fair!.status, "active");
    ai.judged.length = 0;
    const narrated = ai.narrated.length;
    const r = await session.turn({ ...say("y"), pins: { story: "The fair ends.", event: "completed" } });
    assert.equal(session.state.events.fair!.status, "completed");
    assert.equal(r.trace.event?.verdict, "completed");
    assert.equal(ai.narrated.length, narrated, "the narrator was not asked");
    assert.equal(ai.judged.length, 0, "the judge was not asked about the event");
  });

  test("the pin wins over the narrator's own verdict", async () => {
    const ai = new DataAi({
      story: (r) => ({ text: `t${r.tick}`, ...(r.event ? { eventVerdict: "completed" } : {}) }),
    });
    const { session } = await start(world, { ai });
    await session.turn(say("x"));
    await session.turn({ ...say("y"), pins: { event: "stopped" } });
    assert.equal(session.state.events.fair!.status, "stopped");
  });

  test("a pinned story without an event pin leaves the event active (no verdict that turn)", async () => {
    const { session } = await start(world);
    await session.turn(say("x"));
    await session.turn({ ...say("y"), pins: { story: "Nothing." } });
    assert.equal(session.state.events.fair!.status, "active");
  });

  test("an event pin that is not a verdict is refused (turn/invalid)", async () => {
    const { session } = await start(world);
    await assert.rejects(
      session.turn({ ...say("x"), pins: { event: "done" } as never }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === "turn/invalid" &&
        /pins.event must be one of completed/.test(e.message),
    );
  });
});
