import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const offer = (more: Record<string, unknown> = {}) =>
  onlyTriggers({
    offer: {
      conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
      effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }],
    },
    ...more,
  });
const status = (session: { state: { quests: Record<string, { status: string }> } }) =>
  session.state.quests["Lost Sheep"]?.status ?? "hidden";

describe("resolutions 'Quests': acceptance", () => {
  test("every quest starts hidden; quest-init makes it available and raises an acceptance prompt after the turn", async () => {
    const { session } = await start(offer());
    assert.equal(status(session), "hidden");
    const r = await session.turn(say("x"));
    assert.equal(status(session), "available");
    assert.deepEqual(r.prompts, [
      {
        quest: "Lost Sheep",
        source: "Ada Reed",
        statement: "Ada's sheep wandered into the marsh.",
        mainObjective: "Bring the sheep home.",
        reason: "new",
      },
    ]);
    assert.deepEqual((await session.turn(say("y"))).prompts, [], "only the turn it became available");
  });
  test("an acceptQuest intent prompts every available quest", async () => {
    const { session } = await start(offer());
    await session.turn(say("x"));
    const r = await session.turn({ ...say("I'll help"), pins: { intent: { intent: "acceptQuest" } } });
    assert.deepEqual(
      r.prompts.map((p) => [p.quest, p.reason]),
      [["Lost Sheep", "acceptQuest"]],
    );
  });
  test("available -> accepted by acceptQuest, with the tick of each transition", async () => {
    const { session } = await start(offer());
    await session.turn(say("x"));
    const answer = session.acceptQuest("Lost Sheep");
    assert.equal(answer.status, "accepted");
    assert.deepEqual(answer.changes, [
      { quest: "Lost Sheep", from: "available", to: "accepted", reason: "accepted by the player" },
    ]);
    assert.deepEqual(session.state.quests["Lost Sheep"]!.transitions, [
      { status: "available", tick: 1 },
      { status: "accepted", tick: 1 },
    ]);
  });
  test("the log says who answered: the player alone, or the party on a named player's answer", async () => {
    const alone = (await start(offer())).session;
    await alone.turn(say("x"));
    assert.deepEqual(
      alone.acceptQuest("Lost Sheep").logs.map((l) => l.message),
      ['The player accepted quest "Lost Sheep"; it is now accepted.'],
    );
    const party = (await start(offer())).session;
    await party.turn(say("x"));
    assert.deepEqual(
      party.rejectQuest("Lost Sheep", "Ada Quill").logs.map((l) => l.message),
      ['The party rejected quest "Lost Sheep" on Ada Quill\'s answer; it is now rejected.'],
    );
  });
  test("available -> rejected by rejectQuest", async () => {
    const { session } = await start(offer());
    await session.turn(say("x"));
    assert.equal(session.rejectQuest("Lost Sheep").status, "rejected");
    assert.equal(status(session), "rejected");
  });
  test("accepted -> abandoned by abandonQuest (an API call, not an effect)", async () => {
    const { session } = await start(offer());
    await session.turn(say("x"));
    session.acceptQuest("lost sheep");
    assert.equal(session.abandonQuest("Lost Sheep").status, "abandoned");
  });
  test("clear coded errors when the status does not allow the answer, or the quest is unknown", async () => {
    const { session } = await start(offer());
    assert.throws(() => session.acceptQuest("Lost Sheep"), {
      code: "quest/not-available",
      message: /hidden/,
    });
    assert.throws(() => session.abandonQuest("Lost Sheep"), { code: "quest/not-accepted" });
    assert.throws(() => session.acceptQuest("Lost Shep"), {
      code: "quest/unknown",
      message: /Did you mean "Lost Sheep"/,
    });
    assert.throws(() => session.rejectQuest(42 as never), { code: "quest/unknown" });
    await session.turn(say("x"));
    session.acceptQuest("Lost Sheep");
    assert.throws(() => session.rejectQuest("Lost Sheep"), {
      code: "quest/not-available",
      message: /accepted/,
    });
  });
});

describe("resolutions 'Quests': expiry", () => {
  test("available -> expired at the end of the turn whose tick is the availability tick + 3", async () => {
    const { session } = await start(offer());
    await session.turn(say("1"));
    await session.turn(say("2"));
    await session.turn(say("3"));
    assert.equal(status(session), "available");
    const r = await session.turn(say("4"));
    assert.equal(status(session), "expired");
    assert.deepEqual(r.trace.quests, [
      { quest: "Lost Sheep", from: "available", to: "expired", reason: "not accepted within 3 turns" },
    ]);
  });
  test("available -> expired at the end of the turn in which the party left the location where it became available", async () => {
    const { session } = await start(offer(), {
      ai: new DataAi({
        intent: (r) => (r.text === "go" ? { intent: "travel", target: "Fen Hut" } : { intent: "other" }),
      }),
    });
    await session.turn(say("x"));
    await session.turn(say("go"));
    assert.equal(status(session), "expired");
  });
  test("a quest that expires in the turn it appeared raises no prompt", async () => {
    const { session } = await start(
      offer({
        move: {
          conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
          effects: [{ type: "party-location", operator: "set", value: "Fen Hut" }],
        },
      }),
    );
    const r = await session.turn(say("x"));
    assert.equal(status(session), "expired");
    assert.deepEqual(r.prompts, []);
  });
  test("an accepted quest does not expire", async () => {
    const { session } = await start(offer());
    await session.turn(say("x"));
    session.acceptQuest("Lost Sheep");
    for (let i = 0; i < 4; i++) await session.turn(say("x"));
    assert.equal(status(session), "accepted");
  });
});

describe("resolutions 'Quests': completion", () => {
  const progress = (tick: number) => ({
    conditions: [{ type: "game-tick", operator: "equals", value: tick }],
    effects: [{ type: "quest-progress", questId: "Lost Sheep" }],
  });
  test("quest-progress on an accepted quest completes it", async () => {
    const { session } = await start(offer({ done: progress(2) }));
    await session.turn(say("x"));
    session.acceptQuest("Lost Sheep");
    await session.turn(say("y"));
    assert.equal(status(session), "completed");
  });
  test("a quest whose main objective is already done completes on acceptance", async () => {
    const { session } = await start(offer({ done: progress(1) }));
    await session.turn(say("x"));
    assert.equal(status(session), "available");
    const answer = session.acceptQuest("Lost Sheep");
    assert.equal(answer.status, "completed");
    assert.deepEqual(
      answer.changes.map((c) => c.to),
      ["accepted", "completed"],
    );
  });
});

describe("resolutions 'Quests': objective triggers", () => {
  const detailed = {
    quests: {
      "Lost Sheep": { detailType: "detailed", questLocation: "Fen Hut", spatialRelationship: undefined },
    },
  };
  test("a detailed quest with a completion condition gets an engine-made {questId}_objective trigger (story condition, quest-progress, not recurring)", async () => {
    const ai = new DataAi({ judge: ({ question }) => question.query === "The sheep are back in Ada's pen." });
    const { session } = await start({ ...detailed, ...offer() }, { ai });
    const first = await session.turn(say("x"));
    assert.deepEqual(first.trace.phases[1]!.excluded, [
      { trigger: "Lost Sheep_objective", reason: 'quest "Lost Sheep" is hidden, not accepted' },
    ]);
    session.acceptQuest("Lost Sheep");
    const r = await session.turn(say("y"));
    assert.deepEqual(r.fired, ["Lost Sheep_objective"]);
    assert.equal(status(session), "completed");
    assert.deepEqual(session.state.consumed["Lost Sheep_objective"], 2);
  });
  test("no engine-made trigger when the world defines one with that key, or the completion condition is blank", async () => {
    const own = {
      ...detailed,
      ...offer({
        "Lost Sheep_objective": {
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
          effects: [{ type: "write-boolean", key: "own", operator: "set", value: true }],
        },
      }),
    };
    const { session } = await start(own);
    await session.turn(say("x"));
    session.acceptQuest("Lost Sheep");
    await session.turn(say("y"));
    assert.equal(session.state.storage.own, true);
    assert.equal(status(session), "accepted");
    const blank = await start({
      quests: { "Lost Sheep": { ...detailed.quests["Lost Sheep"], completionCondition: "  " } },
      ...offer(),
    });
    await blank.session.turn(say("x"));
    blank.session.acceptQuest("Lost Sheep");
    const r = await blank.session.turn(say("y"));
    assert.deepEqual(
      r.trace.phases[1]!.triggers.map((t) => t.trigger),
      [],
    );
  });
  test("triggers named {questId}_objective_N are out of the pool unless the quest is accepted (abandoned included)", async () => {
    const { session } = await start(
      offer({
        "Lost Sheep_objective_2": {
          recurring: true,
          effects: [{ type: "write-number", key: "obj", operator: "add", value: 1 }],
        },
      }),
    );
    await session.turn(say("x"));
    assert.equal(session.state.storage.obj, undefined);
    session.acceptQuest("Lost Sheep");
    await session.turn(say("x"));
    assert.equal(session.state.storage.obj, 1);
    session.abandonQuest("Lost Sheep");
    await session.turn(say("x"));
    assert.equal(session.state.storage.obj, 1);
  });
  test("a trigger named like an objective of something that is not a quest stays in the pool", async () => {
    const { session } = await start(
      onlyTriggers({
        Lighthouse_objective: {
          recurring: true,
          effects: [{ type: "write-number", key: "n", operator: "add", value: 1 }],
        },
      }),
    );
    assert.equal(session.state.storage.n, 1);
  });
});
