import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MIN_READABLE_VERSION, SAVE_FORMAT, SAVE_VERSION } from "../../src/engine/save.ts";
import { restoreSession } from "../../src/engine/session.ts";
import { DataAi, say, start, worldWith } from "./helpers.ts";

const patch = {
  triggers: {
    count: {
      name: "count",
      recurring: true,
      conditions: [],
      effects: [{ type: "write-number", key: "n", operator: "add", value: 1 }],
    },
  },
  tipSettings: {
    tips: ["a", "b", "c"],
    tipDisplayEnabled: true,
    tipTurnInterval: 1,
    tipMinimumTurns: 1,
    tipMaximumTurns: 99,
  },
};

describe("save format", () => {
  test("a save is versioned JSON with a minimum readable version, the world's hash and the whole state", async () => {
    const { session } = await start(patch);
    const file = JSON.parse(session.save());
    assert.equal(file.format, SAVE_FORMAT);
    assert.equal(file.version, SAVE_VERSION);
    assert.equal(file.minReadableVersion, MIN_READABLE_VERSION);
    assert.match(file.worldHash, /^[0-9a-f]{16}-\d+$/);
    assert.deepEqual(file.settings, { maxJudged: 20 });
    assert.deepEqual(file.state, session.state);
    assert.equal(file.state.rng.length, 4, "the PRNG state lives in the save");
  });
  test("the state never copies the world: the save stays small", async () => {
    const { session } = await start(patch);
    assert.ok(session.save().length < 3000, `${session.save().length}`);
  });
});

describe("restoreSession", () => {
  test("resumes exactly: the same later turns give byte-identical saves", async () => {
    const world = worldWith(patch);
    const ai = new DataAi();
    const { session } = await start(patch, { ai, seed: 77 });
    for (let i = 0; i < 3; i++) await session.turn(say(`a${i}`));
    const restored = await restoreSession(world, session.save(), { ai });
    assert.equal(restored.opening, null);
    assert.equal(restored.save(), session.save());
    for (let i = 0; i < 4; i++) {
      const a = await session.turn(say(`b${i}`));
      const b = await restored.turn(say(`b${i}`));
      assert.deepEqual(b, a);
    }
    assert.equal(restored.save(), session.save());
  });
  test("accepts the parsed save object as well as its text, and keeps maxJudged unless overridden", async () => {
    const { session } = await start(patch, { maxJudged: 3 });
    const again = await restoreSession(worldWith(patch), JSON.parse(session.save()), { ai: new DataAi() });
    assert.equal(JSON.parse(again.save()).settings.maxJudged, 3);
    const other = await restoreSession(worldWith(patch), session.save(), { ai: new DataAi(), maxJudged: 9 });
    assert.equal(JSON.parse(other.save()).settings.maxJudged, 9);
  });
  test("an edit of the world that the save still fits loads it; one it cannot fit is a clear error", async () => {
    const { session } = await start(patch);
    const changed = worldWith({ ...patch, narratorStyle: "Terse." });
    const resumed = await restoreSession(changed, session.save(), { ai: new DataAi() });
    assert.deepEqual(resumed.resumed, { edited: true, warnings: [] });
    const at = session.state.position.location;
    const gone = worldWith({ ...patch, locations: { [at]: undefined } });
    await assert.rejects(restoreSession(gone, session.save(), { ai: new DataAi(), validate: false }), {
      code: "save/world-mismatch",
      message: new RegExp(`another version of this one.*\\n- The party is at location "${at}"`, "s"),
    });
  });
  test("a save from a future engine version that this one cannot read is refused; a newer but readable one is accepted", async () => {
    const { session } = await start(patch);
    const file = JSON.parse(session.save());
    const future = { ...file, version: SAVE_VERSION + 3, minReadableVersion: SAVE_VERSION + 1 };
    await assert.rejects(restoreSession(worldWith(patch), JSON.stringify(future), { ai: new DataAi() }), {
      code: "save/future-version",
      message: /Update Taleforge/,
    });
    const readable = { ...file, version: SAVE_VERSION + 3, minReadableVersion: SAVE_VERSION };
    const ok = await restoreSession(worldWith(patch), JSON.stringify(readable), { ai: new DataAi() });
    assert.equal(ok.tick, 0);
  });
  test("corrupted saves are refused with save/malformed and the place of the damage", async () => {
    const { session } = await start(patch);
    const file = JSON.parse(session.save());
    const cases: [unknown, RegExp][] = [
      ["{not json", /not valid JSON/],
      ["[]", /not a Taleforge save/],
      [null, /not a Taleforge save/],
      [JSON.stringify({ ...file, format: "other" }), /not a Taleforge save/],
      [JSON.stringify({ ...file, version: "1" }), /version numbers/],
      [JSON.stringify({ ...file, state: { ...file.state, tick: -1 } }), /state\.tick/],
      [JSON.stringify({ ...file, state: { ...file.state, rng: [1, 2] } }), /state\.rng/],
      [JSON.stringify({ ...file, state: { ...file.state, party: [] } }), /state\.party/],
      [
        JSON.stringify({ ...file, state: { ...file.state, quests: { x: { status: "done" } } } }),
        /state\.quests\.x/,
      ],
      [JSON.stringify({ ...file, state: undefined }), /state/],
    ];
    for (const [saved, message] of cases) {
      await assert.rejects(
        restoreSession(worldWith(patch), saved, { ai: new DataAi() }),
        { code: "save/malformed", message },
        String(saved).slice(0, 80),
      );
    }
  });
});

test("a damaged save's message says in plain words what the field must hold, not zod's wording", async () => {
  const { session } = await start(patch);
  const file = JSON.parse(session.save());
  const cases: [unknown, RegExp][] = [
    [{ ...file, state: { ...file.state, tick: -1 } }, /damaged at state\.tick: must be 0 or more\./],
    [
      { ...file, state: { ...file.state, tick: "x" } },
      /damaged at state\.tick: must be a number, not a string\./,
    ],
    [
      { ...file, state: { ...file.state, party: [] } },
      /damaged at state\.party: must hold at least 1 item\./,
    ],
    [
      { ...file, state: { ...file.state, position: undefined } },
      /damaged at state\.position: is missing; it must be a JSON object/,
    ],
  ];
  for (const [saved, message] of cases)
    await assert.rejects(
      restoreSession(worldWith(patch), JSON.stringify(saved), { ai: new DataAi() }),
      (error: Error) => {
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /Invalid input|expected \w+, received|Too (small|big)|>=/);
        return true;
      },
    );
});

test("a save with storage nested thousands deep is refused with a coded error, not a crash", async () => {
  const { session } = await start(patch);
  const file = JSON.parse(session.save());
  let deep: unknown = 1;
  for (let i = 0; i < 20000; i++) deep = { d: deep };
  file.state.storage = { deep };
  await assert.rejects(
    restoreSession(worldWith(patch), file, { ai: new DataAi() }),
    (error: { code?: string }) => error.code === "save/malformed",
  );
});

describe("a trusted save (a server's own, read back from its store)", () => {
  test("resumes exactly as a checked one does, from its text or its object, the object left as it was", async () => {
    const world = worldWith(patch);
    const { session } = await start(patch, { seed: 5 });
    for (let i = 0; i < 3; i++) await session.turn(say(`a${i}`));
    const text = session.save();
    const checked = await restoreSession(world, text, { ai: new DataAi() });
    const trusted = await restoreSession(world, text, { ai: new DataAi(), trustedSave: true });
    assert.equal(trusted.save(), checked.save());
    const file = JSON.parse(text);
    const fromObject = await restoreSession(world, file, { ai: new DataAi(), trustedSave: true });
    assert.equal(fromObject.save(), checked.save());
    await fromObject.turn(say("b"));
    assert.equal(JSON.stringify(file), text, "the caller's object is not the session's state");
    await checked.turn(say("b"));
    assert.equal(fromObject.save(), checked.save());
  });
  test("is checked in full when another engine wrote it or the world was edited since", async () => {
    const { session } = await start(patch);
    const file = JSON.parse(session.save());
    const damaged = { ...file, state: { ...file.state, tick: -1 } };
    const others: [string, unknown, Record<string, unknown>][] = [
      ["an older save version", { ...damaged, version: SAVE_VERSION - 1 }, patch],
      ["another engine", { ...damaged, engine: { ...file.engine, engineVersion: 1 } }, patch],
      ["an edited world", damaged, { ...patch, tipSettings: { ...patch.tipSettings, tips: ["a"] } }],
    ];
    for (const [why, saved, worldPatch] of others)
      await assert.rejects(
        restoreSession(worldWith(worldPatch), JSON.stringify(saved), { ai: new DataAi(), trustedSave: true }),
        { code: "save/malformed", message: /state\.tick/ },
        why,
      );
    // Without `trustedSave` the same engine's save on its own world is checked as always.
    await assert.rejects(restoreSession(worldWith(patch), JSON.stringify(damaged), { ai: new DataAi() }), {
      code: "save/malformed",
    });
  });
});
