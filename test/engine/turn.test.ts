import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MOVE_MIN_CONFIDENCE } from "../../src/engine/intent.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { DataAi, onlyTriggers, say, start } from "./helpers.ts";

const far = {
  realms: { Far: { name: "Far", basicInfo: "Beyond.", known: false } },
  regions: {
    Isle: { name: "Isle", basicInfo: "Rock.", x: 4, y: 4, realm: "Far" },
    Wild: { name: "Wild", basicInfo: "No realm.", x: 9, y: 9 },
  },
  locations: {
    Tower: {
      name: "Tower",
      basicInfo: "Tall.",
      x: 1,
      y: 1,
      radius: 3,
      region: "Isle",
      complexityType: "simple",
      detailType: "basic",
      areas: { Stair: { description: "Steps.", paths: [] } },
    },
    Camp: {
      name: "Camp",
      basicInfo: "Tents.",
      x: -3,
      y: 2,
      radius: 3,
      region: "Wild",
      complexityType: "simple",
      detailType: "basic",
      known: false,
    },
  },
};
const travel = (target: string, intent = "travel") => ({
  pins: { intent: { intent: intent as "travel", target } },
});

describe("spec 3 planning: the intent", () => {
  test("ONE classifier call on the first action of the turn", async () => {
    const ai = new DataAi();
    const { session } = await start({}, { ai, players: [{ name: "Ann" }, { name: "Bo" }] });
    const r = await session.turn({
      actions: [
        { player: "Bo", text: "I sing" },
        { player: "Ann", text: "I dance" },
      ],
    });
    assert.equal(ai.classified.length, 1);
    assert.equal(ai.classified[0]!.player, "Bo");
    assert.equal(ai.classified[0]!.text, "I sing");
    assert.deepEqual(r.intent, { intent: "other" });
    assert.deepEqual(session.state.history.actions, [
      { tick: 1, player: "Bo", text: "I sing" },
      { tick: 1, player: "Ann", text: "I dance" },
    ]);
  });
  test("the classifier learns the places it may name and the NPCs present", async () => {
    const ai = new DataAi();
    const { session } = await start(
      { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Millyard" } } },
      { ai },
    );
    await session.turn(say("x"));
    const request = ai.classified[0]!;
    assert.deepEqual(request.npcsPresent, ["Ada Reed"]);
    assert.deepEqual(
      request.places.filter((p) => p.kind === "area").map((p) => p.name),
      ["Millyard", "Loft"],
    );
    assert.ok(request.places.some((p) => p.kind === "location" && p.name === "Fen Hut"));
  });
  test("a pin supplies the intent: no classifier call", async () => {
    const ai = new DataAi();
    const { session } = await start({}, { ai });
    const r = await session.turn({ ...say("x"), pins: { intent: { intent: "sleep" } } });
    assert.equal(ai.classified.length, 0);
    assert.deepEqual(r.trace.intent, { source: "pin", answer: { intent: "sleep" } });
    assert.equal(r.trace.aiCalls.total, 1);
  });
  test("spec 3: travel and move below MOVE_MIN_CONFIDENCE are read as other and nobody moves", async () => {
    const ai = new DataAi({ intent: { intent: "travel", target: "Fen Hut", confidence: 0.2 } });
    const { session } = await start({}, { ai });
    const r = await session.turn(say("maybe the hut?"));
    assert.equal(r.intent?.intent, "other");
    assert.equal(r.trace.movement, null);
    assert.equal(session.state.position.location, "Old Mill");
    assert.match(r.trace.intent.note!, /travel "Fen Hut" at confidence 0.2 .*destination was unclear/);
    ai.script.intent = { intent: "move", target: "Loft", confidence: 0.5 };
    await session.turn(say("loft?"));
    assert.equal(session.state.position.area, "Millyard");
    ai.script.intent = { intent: "travel", target: "Fen Hut", confidence: MOVE_MIN_CONFIDENCE };
    const sure = await session.turn(say("walk to the hut"));
    assert.equal(sure.trace.movement?.moved, true);
  });
  test("an answer naming no known intent is read as other, and the trace says so", async () => {
    const { session } = await start({}, { ai: new DataAi({ intent: { intent: "dance" as "other" } }) });
    const r = await session.turn(say("x"));
    assert.deepEqual(r.intent, { intent: "other" });
    assert.match(r.trace.intent.note!, /unknown intent "dance"/);
  });
});

describe("spec 3 / resolutions 'Geography': movement by intent", () => {
  test("travel goes to a location named case-insensitively, cascading region, realm, coordinates and first area", async () => {
    const { session } = await start(far);
    const r = await session.turn({ ...say("walk"), ...travel("  fen hut ") });
    assert.deepEqual(r.trace.movement, {
      intent: "travel",
      target: "fen hut",
      moved: true,
      to: { realm: "Vale", region: "Southmarsh", location: "Fen Hut", area: "Porch" },
    });
    assert.deepEqual(session.state.position, {
      realm: "Vale",
      region: "Southmarsh",
      location: "Fen Hut",
      area: "Porch",
      x: 10,
      y: -10,
    });
  });
  test("a location whose region's realm is unknown is unreachable; a region with no realm is reachable", async () => {
    const { session } = await start(far);
    const r = await session.turn({ ...say("go"), ...travel("Tower", "fastTravel") });
    assert.equal(r.trace.movement!.moved, false);
    assert.match(r.trace.movement!.reason!, /realm "Far", which the party does not know/);
    const camp = await session.turn({ ...say("go"), ...travel("Camp", "teleport") });
    assert.equal(camp.trace.movement!.moved, true);
  });
  test("arriving in a location marks it, its region and its realm known", async () => {
    const { session } = await start(
      applyPatch(far, {
        realms: { Far: { known: true } },
        regions: { Isle: { known: false } },
        locations: { Tower: { known: false } },
      }),
    );
    await session.turn({ ...say("go"), ...travel("Tower") });
    assert.deepEqual(session.state.known, { Isle: true, Tower: true });
  });
  test("move goes to an area of the current location", async () => {
    const { session } = await start();
    const r = await session.turn({ ...say("climb"), ...travel("loft", "move") });
    assert.equal(session.state.position.area, "Loft");
    assert.equal(r.trace.movement!.moved, true);
    const bad = await session.turn({ ...say("x"), ...travel("Porch", "move") });
    assert.match(bad.trace.movement!.reason!, /has no area named "Porch"/);
  });
  test("unknown or missing targets do not move the party", async () => {
    const { session } = await start();
    assert.match(
      (await session.turn({ ...say("x"), ...travel("Atlantis") })).trace.movement!.reason!,
      /no location named "Atlantis"/,
    );
    assert.match(
      (await session.turn({ ...say("x"), pins: { intent: { intent: "travel" } } })).trace.movement!.reason!,
      /no destination/,
    );
    assert.equal(
      (await session.turn({ ...say("x"), pins: { intent: { intent: "attack", target: "Fen Hut" } } })).trace
        .movement,
      null,
    );
    assert.equal(session.state.position.location, "Old Mill");
  });
  test("movement happens after the planning phase and before narration and the state phase", async () => {
    const ai = new DataAi();
    const { session } = await start(
      onlyTriggers({
        plan: {
          conditions: [
            { type: "action-text", operator: "contains", value: "" },
            { type: "party-location", operator: "equals", value: "Old Mill" },
          ],
          effects: [{ type: "write-boolean", key: "plan", operator: "set", value: true }],
        },
        after: {
          conditions: [
            { type: "game-tick", operator: "equals", value: 1 },
            { type: "party-location", operator: "equals", value: "Fen Hut" },
          ],
          effects: [{ type: "write-boolean", key: "after", operator: "set", value: true }],
        },
      }),
      { ai },
    );
    await session.turn({ ...say("go"), ...travel("Fen Hut") });
    assert.deepEqual(session.state.storage, { plan: true, after: true });
    assert.equal(ai.narrated[1]!.scene.position.location, "Fen Hut");
    assert.deepEqual(ai.narrated[1]!.outcomes, [
      {
        type: "moved",
        actor: ai.narrated[1]!.actions[0]!.player,
        how: "travelled",
        location: "Fen Hut",
        area: "Porch",
      },
    ]);
  });
});

describe("narration", () => {
  test("actionsAnswered: the narrator is told when a trigger fired on the actions (its story is deferred)", async () => {
    const ai = new DataAi();
    const { session } = await start(
      onlyTriggers({
        ring: {
          conditions: [{ type: "action-text", operator: "contains", value: "ring" }],
          effects: [{ type: "story", instruction: "The bell's voice rolls out over the water." }],
        },
      }),
      { ai },
    );
    await session.turn(say("ring the bell"));
    await session.turn(say("wait"));
    // The turn the bell was rung: answered, though its story comes with the next narration.
    assert.equal(ai.narrated[1]!.actionsAnswered, true);
    assert.deepEqual(ai.narrated[1]!.instructions, []);
    // The next turn: its story, and no trigger answered "wait" (the field is left out).
    assert.deepEqual(ai.narrated[2]!.instructions, ["The bell's voice rolls out over the water."]);
    assert.equal(Object.hasOwn(ai.narrated[2]!, "actionsAnswered"), false);
  });

  test("the narrator gets the instructions pending before the turn, which are then cleared; new ones wait for the next turn", async () => {
    const ai = new DataAi();
    const { session } = await start(
      onlyTriggers({
        first: {
          conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
          effects: [{ type: "story", instruction: "A" }],
        },
        plan: {
          conditions: [
            { type: "game-tick", operator: "equals", value: 2 },
            { type: "action-text", operator: "contains", value: "" },
          ],
          effects: [{ type: "story", instruction: "B" }],
        },
      }),
      { ai },
    );
    await session.turn(say("1"));
    assert.deepEqual(ai.narrated[1]!.instructions, []);
    assert.deepEqual(session.state.pendingInstructions, ["A"]);
    await session.turn(say("2"));
    assert.deepEqual(ai.narrated[2]!.instructions, ["A"], "B came during turn 2's planning: deferred");
    await session.turn(say("3"));
    assert.deepEqual(ai.narrated[3]!.instructions, ["B"]);
    assert.deepEqual(session.state.pendingInstructions, []);
  });
  test("the scene names the place, the NPCs present and the party; the story joins the history", async () => {
    const ai = new DataAi({ story: "The wheel turns." });
    const { session } = await start(
      { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Millyard" } } },
      { ai },
    );
    const r = await session.turn(say("x"));
    const scene = ai.narrated[1]!.scene;
    assert.equal(scene.locationInfo, "A creaking watermill.");
    assert.equal(scene.areaDescription, "Muddy yard.");
    assert.deepEqual(scene.npcsPresent, [
      { name: "Ada Reed", info: "A shepherd who lost her flock.", known: false },
    ]);
    assert.deepEqual(scene.party, [{ name: "Player", level: 1, resources: { health: 20 }, traits: [] }]);
    assert.equal(r.story, "The wheel turns.");
    assert.deepEqual(session.state.history.story.at(-1), { tick: 1, text: "The wheel turns." });
  });
  test("a failing narrator or classifier rejects the turn with ai/failed, changing nothing", async () => {
    const ai = new DataAi();
    const { session } = await start({}, { ai });
    const before = session.save();
    ai.narrate = async () => {
      throw new Error("socket hang up");
    };
    await assert.rejects(session.turn(say("x")), {
      code: "ai/failed",
      message: /narrator failed: socket hang up/,
    });
    ai.narrate = async () => ({ text: 42 as unknown as string });
    await assert.rejects(session.turn(say("x")), { code: "ai/failed", message: /without a text/ });
    ai.classify = async () => {
      throw new Error("timeout");
    };
    await assert.rejects(session.turn(say("x")), { code: "ai/failed", message: /classifier failed/ });
    assert.equal(session.save(), before);
  });
});

describe("after the turn", () => {
  test("resources recharge by rechargeRate, clamped to the maximum", async () => {
    const { session } = await start(
      { resourceSettings: { health: { rechargeRate: 3 } } },
      { ai: new DataAi() },
    );
    const r0 = await session.turn({ ...say("x") });
    assert.deepEqual(r0.trace.recharge, []);
    const s = await start({
      resourceSettings: { health: { rechargeRate: 3, restRechargeMultiplier: 2 } },
      ...onlyTriggers({
        hurt: { effects: [{ type: "player-resource", resource: "health", operator: "set", value: 10 }] },
      }),
    });
    const r1 = await s.session.turn(say("x"));
    assert.deepEqual(r1.trace.recharge, [{ character: "Player", resource: "health", before: 10, after: 13 }]);
    const r2 = await s.session.turn({ ...say("rest"), pins: { intent: { intent: "sleep" } } });
    assert.deepEqual(
      r2.trace.recharge,
      [{ character: "Player", resource: "health", before: 13, after: 19 }],
      "times restRechargeMultiplier on sleep",
    );
    await s.session.turn(say("x"));
    assert.equal(s.session.state.party[0]!.resources.health!.current, 20);
  });
  test("tips per tipSettings: every tipTurnInterval turns within [min, max], seeded, never the same twice in a row", async () => {
    const tips = {
      tipSettings: {
        tips: ["a", "b", "c"],
        tipDisplayEnabled: true,
        tipTurnInterval: 2,
        tipMinimumTurns: 2,
        tipMaximumTurns: 8,
      },
    };
    const run = async (seed: number) => {
      const { session } = await start(tips, { seed });
      const shown: (string | null)[] = [];
      for (let i = 0; i < 10; i++) shown.push((await session.turn(say("x"))).tip);
      return shown;
    };
    const shown = await run(5);
    assert.deepEqual(
      shown.map((t) => t !== null),
      [false, true, false, true, false, true, false, true, false, false],
    );
    const values = shown.filter((t) => t !== null);
    for (let i = 1; i < values.length; i++) assert.notEqual(values[i], values[i - 1]);
    assert.deepEqual(await run(5), shown, "same seed, same tips");
    const { session } = await start({ tipSettings: { ...tips.tipSettings, tipDisplayEnabled: false } });
    assert.equal((await session.turn(say("x"))).tip, null);
  });
  test("the turn's diff lists what changed, with before and after", async () => {
    const { session } = await start(
      onlyTriggers({
        t: {
          conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
          effects: [{ type: "write-number", key: "n", operator: "set", value: 4 }],
        },
      }),
    );
    const r = await session.turn(say("x"));
    assert.deepEqual(
      r.diff.find((d) => d.path[0] === "tick"),
      { path: ["tick"], before: 0, after: 1 },
    );
    assert.deepEqual(
      r.diff.find((d) => d.path[0] === "storage"),
      { path: ["storage", "n"], after: 4 },
    );
    assert.ok(!r.diff.some((d) => d.path[0] === "rng" || d.path[0] === "log"));
  });
});
