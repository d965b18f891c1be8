import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const tickAbove = (n: number) => ({ type: "game-tick", operator: "greaterThan", value: n });
const count = (key: string) => ({ type: "write-number", key, operator: "add", value: 1 });

describe("spec 3 trigger lifecycle", () => {
  test("armed non-recurring: all conditions pass -> effects apply, consumed, never fires again", async () => {
    const { session } = await start(
      onlyTriggers({ once: { conditions: [tickAbove(0)], effects: [count("once")] } }),
    );
    const first = await session.turn(say("a"));
    assert.deepEqual(first.fired, ["once"]);
    const again = await session.turn(say("b"));
    assert.deepEqual(again.fired, []);
    assert.equal(session.state.storage.once, 1);
    assert.deepEqual(session.state.consumed, { once: 1 });
    assert.ok(
      !again.trace.phases[1]!.triggers.some((t) => t.trigger === "once"),
      "a consumed trigger is no longer considered",
    );
  });
  test("a trigger with no effects and no script does nothing visible but is still consumed", async () => {
    const { session } = await start(onlyTriggers({ empty: { conditions: [tickAbove(0)] } }));
    await session.turn(say("a"));
    assert.deepEqual(session.state.consumed, { empty: 1 });
  });
  test("armed recurring: fires every turn its conditions pass, including tick 0", async () => {
    const { session } = await start(onlyTriggers({ every: { recurring: true, effects: [count("n")] } }));
    assert.deepEqual(session.opening!.fired, ["every"]);
    await session.turn(say("a"));
    await session.turn(say("b"));
    assert.equal(session.state.storage.n, 3);
    assert.deepEqual(session.state.consumed, {});
  });
  test("empty conditions: a non-recurring trigger fires at tick 0 and is consumed", async () => {
    const { session } = await start(onlyTriggers({ boot: { effects: [count("boot")] } }));
    assert.deepEqual(session.opening!.fired, ["boot"]);
    assert.deepEqual(session.state.consumed, { boot: 0 });
  });
  test("armed: conditions do not pass -> nothing applies, still armed", async () => {
    const { session } = await start(
      onlyTriggers({ later: { conditions: [tickAbove(1)], effects: [count("later")] } }),
    );
    const r = await session.turn(say("a"));
    assert.deepEqual(r.fired, []);
    assert.equal(session.state.storage.later, undefined);
    assert.deepEqual((await session.turn(say("b"))).fired, ["later"]);
  });
  test("the fired set is keyed by the trigger's map key", async () => {
    const { session } = await start(onlyTriggers({ "key with spaces": { conditions: [tickAbove(0)] } }));
    assert.deepEqual((await session.turn(say("a"))).fired, ["key with spaces"]);
    assert.ok(Object.hasOwn(session.state.consumed, "key with spaces"));
  });
});

describe("spec 3 phases", () => {
  test("a trigger with an action or action-text condition runs in planning; every other one in the state phase", async () => {
    const { session } = await start(
      onlyTriggers({
        by_text: { conditions: [{ type: "action-text", operator: "contains", value: "bell" }] },
        by_ai: { conditions: [{ type: "action", query: "The player rings the bell." }] },
        mixed: {
          conditions: [
            { type: "action-text", operator: "contains", value: "bell" },
            { type: "story-text", operator: "contains", value: "Story" },
          ],
        },
        by_story: {
          conditions: [{ type: "story-text", operator: "contains", value: "Story" }, tickAbove(0)],
        },
        plain: { conditions: [tickAbove(0)] },
      }),
      { ai: new DataAi({ judge: () => true }) },
    );
    const r = await session.turn(say("ring the bell"));
    const [planning, state] = r.trace.phases;
    assert.deepEqual(
      planning!.triggers.map((t) => t.trigger),
      ["by_text", "by_ai", "mixed"],
    );
    assert.deepEqual(
      state!.triggers.map((t) => t.trigger),
      ["by_story", "plain"],
    );
    assert.deepEqual(r.fired, ["by_text", "by_ai", "mixed", "by_story", "plain"]);
  });
  test("planning sees the previous story; the state phase sees this turn's story", async () => {
    const story = (tick: number) => `Chapter ${tick}.`;
    const { session } = await start(
      onlyTriggers({
        plan_prev: {
          recurring: true,
          conditions: [
            { type: "action-text", operator: "contains", value: "go" },
            { type: "story-text", operator: "equals", value: "Chapter 0." },
          ],
          effects: [count("plan")],
        },
        state_new: {
          recurring: true,
          conditions: [{ type: "story-text", operator: "equals", value: "Chapter 1." }],
          effects: [count("state")],
        },
      }),
      { ai: new DataAi({ story: (r) => story(r.tick) }) },
    );
    await session.turn(say("go"));
    assert.equal(session.state.storage.plan, 1);
    assert.equal(session.state.storage.state, 1);
  });
  test("resolutions 'Ticks': each turn advances the tick before planning, so the first action is evaluated at tick 1", async () => {
    const { session } = await start(
      onlyTriggers({
        first: {
          conditions: [
            { type: "game-tick", operator: "equals", value: 1 },
            { type: "action-text", operator: "contains", value: "" },
          ],
        },
      }),
    );
    assert.equal(session.tick, 0);
    const r = await session.turn(say("hello"));
    assert.equal(r.tick, 1);
    assert.deepEqual(r.fired, ["first"]);
  });
});

describe("resolutions 'Triggers': two-step phase evaluation", () => {
  test("(1) conditions are evaluated against the state at the start of the phase: an earlier trigger's effect does not make a later one fire in the same phase", async () => {
    const { session } = await start(
      onlyTriggers({
        setter: {
          conditions: [tickAbove(0)],
          effects: [{ type: "write-boolean", key: "open", operator: "set", value: true }],
        },
        reader: {
          conditions: [{ type: "read-boolean", key: "open", operator: "equals", value: true }],
          effects: [count("reader")],
        },
      }),
    );
    const first = await session.turn(say("a"));
    assert.deepEqual(first.fired, ["setter"]);
    const second = await session.turn(say("b"));
    assert.deepEqual(second.fired, ["reader"]);
  });
  test("(1) nor does it stop a later trigger that passed at the start of the phase", async () => {
    const { session } = await start(
      onlyTriggers({
        closer: {
          conditions: [tickAbove(0)],
          effects: [{ type: "write-boolean", key: "open", operator: "set", value: false }],
        },
        reader: {
          conditions: [{ type: "read-boolean", key: "open", operator: "equals", value: true }],
          effects: [count("reader")],
        },
        opener: { effects: [{ type: "write-boolean", key: "open", operator: "set", value: true }] },
      }),
    );
    assert.deepEqual(session.opening!.fired, ["opener"]);
    const r = await session.turn(say("a"));
    assert.deepEqual(r.fired, ["closer", "reader"]);
  });
  test("(2) in map order each firing trigger's effects apply, so later effects see earlier ones", async () => {
    const { session } = await start(
      onlyTriggers({
        a: {
          conditions: [tickAbove(0)],
          effects: [{ type: "write-number", key: "n", operator: "set", value: 2 }],
        },
        b: {
          conditions: [tickAbove(0)],
          effects: [{ type: "write-number", key: "n", operator: "multiply", value: 10 }],
        },
      }),
    );
    await session.turn(say("a"));
    assert.equal(session.state.storage.n, 20);
  });
  test("a planning-phase effect is visible to the state phase's conditions in the same turn", async () => {
    const { session } = await start(
      onlyTriggers({
        plan: {
          conditions: [{ type: "action-text", operator: "contains", value: "pull" }],
          effects: [{ type: "write-boolean", key: "lever", operator: "set", value: true }],
        },
        react: { conditions: [{ type: "read-boolean", key: "lever", operator: "equals", value: true }] },
      }),
    );
    assert.deepEqual((await session.turn(say("pull the lever"))).fired, ["plan", "react"]);
  });
});

describe("spec 3 / resolutions: tick 0 and the opening", () => {
  test("the opening is narrated from the story start (opening: true) before tick-0 triggers apply", async () => {
    const ai = new DataAi();
    const { session } = await start(
      onlyTriggers({
        at_zero: {
          effects: [
            { type: "story", instruction: "Mention the heron." },
            { type: "write-boolean", key: "z", operator: "set", value: true },
          ],
        },
      }),
      { ai },
    );
    const opening = ai.narrated[0]!;
    assert.equal(opening.opening, true);
    assert.equal(opening.tick, 0);
    assert.equal(opening.scene.openingText, "Dawn light spills over the millyard.");
    assert.deepEqual(opening.instructions, [], "a story effect at tick 0 does not reach the opening");
    assert.deepEqual(session.opening!.fired, ["at_zero"]);
    assert.equal(session.opening!.trace.phases.length, 1);
    assert.equal(session.opening!.trace.phases[0]!.phase, "state");
    await session.turn(say("look"));
    assert.deepEqual(
      ai.narrated[1]!.instructions,
      ["Mention the heron."],
      "it reaches the first turn's narration",
    );
  });
  test("tick-0 triggers see the opening text as the story", async () => {
    const { session } = await start(
      onlyTriggers({ saw: { conditions: [{ type: "story-text", operator: "contains", value: "heron" }] } }),
      {
        ai: new DataAi({ story: "A heron lifts off the water." }),
      },
    );
    assert.deepEqual(session.opening!.fired, ["saw"]);
    assert.equal(session.opening!.story, "A heron lifts off the water.");
  });
  test("an empty opening answer falls back to the story start text", async () => {
    const { session } = await start({}, { ai: new DataAi({ story: (r) => (r.opening ? "" : "x") }) });
    assert.equal(session.opening!.story, "Dawn light spills over the millyard.");
  });
});

describe("spec 3 evaluation rules", () => {
  test("mechanical conditions evaluate immediately with no AI call", async () => {
    const ai = new DataAi();
    const { session } = await start(
      onlyTriggers({
        m: {
          recurring: true,
          conditions: [
            tickAbove(0),
            { type: "story-text", operator: "contains", value: "Story" },
            { type: "action-text", operator: "regex", value: "." },
          ],
        },
      }),
      { ai },
    );
    const r = await session.turn(say("x"));
    assert.deepEqual(r.fired, ["m"]);
    assert.equal(ai.judged.length, 0);
    assert.equal(r.trace.aiCalls.judge, 0);
  });
  test("a regex that does not compile never matches and is logged once per session", async () => {
    const { session } = await start(
      onlyTriggers({
        bad: {
          recurring: true,
          conditions: [{ type: "story-text", operator: "regex", value: "([unclosed" }],
        },
      }),
      { validate: false },
    );
    const notices = session.opening!.logs.filter((l) => l.type === "notice");
    assert.equal(notices.length, 1);
    assert.match(notices[0]!.message, /does not compile/);
    assert.equal(notices[0]!.trigger, "bad");
    const r = await session.turn(say("x"));
    assert.deepEqual(r.fired, []);
    assert.deepEqual(r.logs, [], "not logged again");
    assert.match(r.trace.phases[1]!.triggers[0]!.conditions[0]!.error!, /does not compile/);
  });
});
