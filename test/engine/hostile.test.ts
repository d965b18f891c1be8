import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { EngineError } from "../../src/engine/errors.ts";
import { createSession, restoreSession } from "../../src/engine/session.ts";
import { DataAi, say, start, worldWith } from "./helpers.ts";

describe("hostile input: createSession", () => {
  test("a world that is not an object, or has validation errors, is refused with world/invalid naming code and path", async () => {
    for (const world of [null, "world", 42, [], undefined]) {
      await assert.rejects(createSession(world, { ai: new DataAi() }), { code: "world/invalid" });
    }
    const broken = worldWith({
      triggers: {
        start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThanOrEqualTo", value: 0 }] },
      },
    });
    await assert.rejects(createSession(broken, { ai: new DataAi() }), (error: EngineError) => {
      assert.equal(error.code, "world/invalid");
      assert.match(
        error.message,
        /condition\/or-equal-to at triggers\.start_sheep\.conditions\[0\]\.operator/,
      );
      assert.ok(Array.isArray(error.details.diagnostics));
      return true;
    });
    const cyclic: Record<string, unknown> = worldWith();
    cyclic.self = cyclic;
    await assert.rejects(createSession(cyclic, { ai: new DataAi() }), {
      code: "world/invalid",
      message: /not plain JSON/,
    });
    await assert.rejects(createSession(worldWith({ heroesVersion: 35 }), { ai: new DataAi() }), {
      code: "world/invalid",
      message: /unsupported-version/,
    });
  });
  test("bad options are refused with options/invalid", async () => {
    const cases: unknown[] = [
      undefined,
      {},
      { ai: {} },
      { ai: { classify() {}, narrate() {} } },
      { ai: new DataAi(), maxJudged: -1 },
      { ai: new DataAi(), maxJudged: 2.5 },
      { ai: new DataAi(), seed: Number.NaN },
      { ai: new DataAi(), seed: "7" },
      { ai: new DataAi(), storyStart: 3 },
      { ai: new DataAi(), scripts: {} },
      { ai: new DataAi(), validate: "yes" },
      { ai: new DataAi(), sessionId: 5 },
    ];
    for (const options of cases) {
      await assert.rejects(
        createSession(worldWith(), options as never),
        { code: "options/invalid" },
        JSON.stringify(options),
      );
    }
  });
  test("a world without story starts is refused with options/no-story-start", async () => {
    await assert.rejects(
      createSession(worldWith({ storyStarts: { Morning: undefined } }), {
        ai: new DataAi(),
        validate: false,
      }),
      {
        code: "options/no-story-start",
      },
    );
  });
});

describe("hostile input: session.turn", () => {
  const cases: [string, unknown, string][] = [
    ["no input", undefined, "turn/invalid"],
    ["a string", "look", "turn/invalid"],
    ["no actions", {}, "turn/no-actions"],
    ["empty actions", { actions: [] }, "turn/no-actions"],
    ["actions not an array", { actions: "look" }, "turn/invalid"],
    ["an action without text", { actions: [{ player: "Player" }] }, "turn/invalid"],
    ["a non-string text", { actions: [{ player: "Player", text: 5 }] }, "turn/invalid"],
    ["an unknown player", { actions: [{ player: "Nobody", text: "hi" }] }, "turn/unknown-player"],
    ["a party NPC acting", { actions: [{ player: "Ada Reed", text: "hi" }] }, "turn/unknown-player"],
    [
      "one player twice",
      {
        actions: [
          { player: "Player", text: "a" },
          { player: "Player", text: "b" },
        ],
      },
      "turn/duplicate-player",
    ],
    ["a bad pin", { ...say("x"), pins: { intent: { intent: "fly" } } }, "turn/invalid"],
    ["pins not an object", { ...say("x"), pins: 3 }, "turn/invalid"],
  ];
  for (const [name, input, code] of cases) {
    test(`${name} is refused with ${code}, and the session is unchanged`, async () => {
      const { session } = await start({ storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } } });
      const before = session.save();
      await assert.rejects(session.turn(input as never), { code });
      assert.equal(session.save(), before);
    });
  }
  test("unknown player errors suggest the right name", async () => {
    const { session } = await start();
    await assert.rejects(session.turn(say("x", "player")), { message: /Did you mean "Player"/ });
  });
  test("a call while a turn is running is refused with session/busy", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ai = new DataAi();
    const { session } = await start({}, { ai });
    const original = ai.narrate.bind(ai);
    ai.narrate = async (request) => {
      await gate;
      return original(request);
    };
    const running = session.turn(say("x"));
    await assert.rejects(session.turn(say("y")), { code: "session/busy" });
    assert.throws(() => session.acceptQuest("Lost Sheep"), { code: "session/busy" });
    release();
    assert.equal((await running).tick, 1);
    assert.equal((await session.turn(say("z"))).tick, 2, "free again");
  });
  test("any JSON value as a turn input gives an EngineError or a turn, never another exception", async () => {
    const { session } = await start();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (input) => {
        try {
          await session.turn(input as never);
        } catch (error) {
          assert.ok(error instanceof EngineError, String(error));
        }
      }),
      { numRuns: 150 },
    );
  });
});

test("a pathologically nested world is refused with world/invalid, not a crash", async () => {
  let deep: unknown = "leaf";
  for (let i = 0; i < 20000; i++) deep = [deep];
  const world = worldWith() as unknown as Record<string, unknown>;
  world.extra = deep;
  await assert.rejects(createSession(world, { ai: new DataAi() }), { code: "world/invalid" });
});

test('"__proto__" as a trigger key, storage key, entity or player name is stored as data and never touches a prototype', async () => {
  const world = JSON.parse(
    JSON.stringify(worldWith()).replace(
      '"triggers":{',
      '"triggers":{"__proto__":{"name":"__proto__","conditions":[{"type":"game-tick","operator":"greaterThan","value":0}],"effects":[{"type":"write-string","key":"__proto__","operator":"set","value":"x"},{"type":"known-entity","entity":"__proto__","operator":"set","value":true}]},',
    ),
  );
  assert.ok(Object.hasOwn(world.triggers, "__proto__"));
  const session = await createSession(world, {
    ai: new DataAi(),
    players: [{ name: "__proto__" }],
    validate: false,
  });
  const r = await session.turn(say("x", "__proto__"));
  assert.deepEqual(r.fired, ["__proto__", "start_sheep"]);
  const state = session.state;
  assert.ok(Object.hasOwn(state.consumed, "__proto__"));
  assert.ok(Object.hasOwn(state.storage, "__proto__"));
  assert.ok(Object.hasOwn(state.known, "__proto__"));
  assert.equal(({} as Record<string, unknown>).status, undefined);
  assert.deepEqual((await session.turn(say("y", "__proto__"))).fired, [], "consumed, so not again");
  const restored = await restoreSession(world, session.save(), { ai: new DataAi(), validate: false });
  assert.equal(restored.save(), session.save());
});
