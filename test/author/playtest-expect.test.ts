import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { CHECKERS, checkExpect, type Mismatch, type Observed } from "../../src/author/playtest/expect.ts";
import type { TurnResult } from "../../src/engine/result.ts";
import { createSession } from "../../src/engine/session.ts";
import { indexWorld } from "../../src/engine/world-index.ts";
import { DataAi } from "../engine/helpers.ts";
import { harbor } from "../helpers/author.ts";

/**
 * Each expectation kind, passing and failing, with the path of what failed:
 * the checkers are pure functions of the state a step left behind.
 */
const world = harbor();
const index = indexWorld(world);
const AT = ["turns", 2, "expect"];
let seen: Observed;
let turn: TurnResult;

before(async () => {
  const ai = new DataAi({ intent: { intent: "travel", target: "The Gutted Eel" }, story: "You arrive." });
  const session = await createSession(world, {
    players: [{ name: "Aria", traits: ["Noble"] }, { premade: "Isobel Carrow" }],
    ai,
    seed: 1,
  });
  turn = await session.turn({ actions: [{ player: "Aria", text: "walk to the Gutted Eel" }] });
  const state = session.state;
  state.storage = { visits: 2, mood: "hopeful", list: [1, { a: true }], nothing: null };
  seen = {
    state,
    index,
    turn,
    fired: turn.fired,
    logs: [
      { tick: 1, phase: "state", trigger: "x", type: "script-log", message: "x: lighthouse visits: 1" },
      { tick: 1, phase: "state", trigger: "y", type: "notice", message: "a regex does not compile" },
    ],
    prompts: turn.prompts,
    triggers: new Set(Object.keys(index.baseTriggers)),
    consumedBefore: {},
  };
});

function check<K extends keyof typeof CHECKERS>(kind: K, value: unknown): Mismatch[] {
  return checkExpect({ [kind]: value }, seen, AT);
}

function failsAt(result: Mismatch[], path: (string | number)[], message: RegExp): void {
  assert.equal(result.length, 1, JSON.stringify(result, null, 2));
  assert.deepEqual(result[0]!.path, path);
  assert.match(result[0]!.message, message);
}

describe("fired / notFired", () => {
  test("pass when the trigger fired (any phase) / did not", () => {
    assert.deepEqual(check("fired", ["keeper_rumour"]), []);
    assert.deepEqual(check("notFired", ["meet_mara"]), []);
  });

  test("fail at the list item, saying why the trigger did not fire and what did", () => {
    failsAt(
      check("fired", ["keeper_rumour", "meet_mara"]),
      [...AT, "fired", 1],
      /^expected "meet_mara" to fire; it did not \(planning phase: condition 1 failed \(party-location equals "The Gutted Eel", actual "Brinewick Docks"\), and 2 more\)\. Fired: keeper_rumour, fog_warning\.$/,
    );
    failsAt(
      check("notFired", ["keeper_rumour"]),
      [...AT, "notFired", 0],
      /^expected "keeper_rumour" not to fire; it fired/,
    );
  });

  test("a spent trigger says so", () => {
    const result = checkExpect(
      { fired: ["keeper_rumour"] },
      { ...seen, fired: [], consumedBefore: { keeper_rumour: 1 } },
      AT,
    );
    assert.match(result[0]!.message, /already fired on turn 1 and is not recurring/);
  });

  test("an unknown trigger is an error, with a did-you-mean, for both lists", () => {
    failsAt(
      check("fired", ["keeper_rumor"]),
      [...AT, "fired", 0],
      /No trigger "keeper_rumor" in the world, no script has added one so far, and no script of the world names it as a key of `triggers`\. Did you mean "keeper_rumour"\?/,
    );
    failsAt(check("notFired", ["tmple_heal"]), [...AT, "notFired", 0], /Did you mean "temple_heal"\?/);
  });
});

describe("quests and events", () => {
  test("a status, or a status and objectives", () => {
    assert.deepEqual(
      check("quests", { "The Keeper's Debt": "available", "The Tongueless Bell": "hidden" }),
      [],
    );
    assert.deepEqual(
      check("quests", {
        "The Keeper's Debt": { objectives: { find_mara: "active", light_beacon: "hidden" } },
      }),
      [],
    );
  });

  test("a wrong status fails at the quest's key, with its history", () => {
    const result = check("quests", { "The Keeper's Debt": "completed" });
    failsAt(
      result,
      [...AT, "quests", "The Keeper's Debt"],
      /^quest "The Keeper's Debt": expected completed, got available \(available on turn 1\)\.$/,
    );
    assert.equal(result[0]!.atKey, true);
  });

  test("a wrong objective fails at the objective's key", () => {
    failsAt(
      check("quests", { "The Keeper's Debt": { objectives: { find_mara: "completed" } } }),
      [...AT, "quests", "The Keeper's Debt", "objectives", "find_mara"],
      /objective find_mara: expected completed, got active/,
    );
  });

  test("events: never started is inactive", () => {
    assert.deepEqual(check("events", { "Storm Night": "inactive" }), []);
    failsAt(
      check("events", { "Storm Night": "active" }),
      [...AT, "events", "Storm Night"],
      /expected active, got inactive/,
    );
  });
});

describe("storage, party, known", () => {
  test("storage values are deep-equal per listed key; null means absent (or null)", () => {
    assert.deepEqual(
      check("storage", { visits: 2, list: [1, { a: true }], missing: null, nothing: null }),
      [],
    );
    failsAt(
      check("storage", { list: [1, { a: false }] }),
      [...AT, "storage", "list"],
      /expected \[1,\{"a":false\}\], got \[1,\{"a":true\}\]/,
    );
    failsAt(
      check("storage", { missing: 0 }),
      [...AT, "storage", "missing"],
      /got nothing \(the key is not set\)/,
    );
    failsAt(check("storage", { visits: null }), [...AT, "storage", "visits"], /expected null, got 2/);
    failsAt(check("storage", { visits: "2" }), [...AT, "storage", "visits"], /expected "2", got 2/);
  });

  test("party position, level by level", () => {
    assert.deepEqual(
      check("party", {
        realm: "Brine Reach",
        region: "Brinewick",
        location: "The Gutted Eel",
        area: "Hearth Room",
      }),
      [],
    );
    failsAt(
      check("party", { area: "Back Parlour" }),
      [...AT, "party", "area"],
      /party area: expected "Back Parlour", got "Hearth Room"/,
    );
  });

  test("known entities, with the world's defaults", () => {
    assert.deepEqual(check("known", { "Mara Venn": false, Brinewick: true }), []);
    failsAt(
      check("known", { "Mara Venn": true }),
      [...AT, "known", "Mara Venn"],
      /"Mara Venn" should be known; it is unknown/,
    );
  });
});

describe("players", () => {
  test("level, xp, resources (current or {current, max}), attributes, items", () => {
    assert.deepEqual(
      check("players", {
        Aria: {
          level: 1,
          xp: 0,
          // No script runner here, so fog_warning's script is skipped and its typed effects apply: -1.
          resources: { health: 30, resolve: { current: 9, max: 10 }, Health: { max: 30 } },
          attributes: { charm: 9 },
          items: { "House Signet": 1, "Tarred Rope": 0 },
        },
      }),
      [],
    );
    const result = check("players", {
      Aria: { level: 2, resources: { health: { max: 31 } }, items: { "House Signet": 2 } },
    });
    assert.deepEqual(
      result.map((m) => m.path.slice(AT.length + 2)),
      [["level"], ["resources", "health"], ["items", "House Signet"]],
    );
    assert.match(result[1]!.message, /Aria's health max: expected 31, got 30/);
    assert.match(result[2]!.message, /Aria should hold 2 × House Signet; holds 1/);
  });

  test("`traits` is the exact set (any order); hasTraits / lacksTraits check some", () => {
    assert.deepEqual(check("players", { "Isobel Carrow": { traits: ["Blessed", "Dockborn"] } }), []);
    assert.deepEqual(
      check("players", { "Isobel Carrow": { hasTraits: ["Blessed"], lacksTraits: ["Noble"] } }),
      [],
    );
    failsAt(
      check("players", { "Isobel Carrow": { traits: ["Dockborn"] } }),
      [...AT, "players", "Isobel Carrow", "traits"],
      /expected exactly \[Dockborn\], got \[Dockborn, Blessed\] \(also has Blessed\)/,
    );
    failsAt(
      check("players", { "Isobel Carrow": { hasTraits: ["Noble"] } }),
      [...AT, "players", "Isobel Carrow", "hasTraits", 0],
      /should have the trait Noble/,
    );
    failsAt(
      check("players", { "Isobel Carrow": { lacksTraits: ["Blessed"] } }),
      [...AT, "players", "Isobel Carrow", "lacksTraits", 0],
      /should not have the trait Blessed/,
    );
  });
});

describe("log and prompts", () => {
  test("a log type matches entries of that type; other text, a message substring", () => {
    assert.deepEqual(check("log", { contains: ["script-log", "lighthouse visits: 1", "notice"] }), []);
    assert.deepEqual(check("log", { notContains: ["trigger-script-error", "visits: 2"] }), []);
    failsAt(
      check("log", { contains: ["trigger-script-error"] }),
      [...AT, "log", "contains", 0],
      /expected a log entry of type trigger-script-error; entries: script-log "x: lighthouse visits: 1"; notice/,
    );
    failsAt(
      check("log", { notContains: ["regex"] }),
      [...AT, "log", "notContains", 0],
      /expected no log entry containing "regex"; found notice "a regex does not compile"/,
    );
  });

  test("prompts: the set of quests offered for acceptance by the step", () => {
    assert.deepEqual(check("prompts", ["The Keeper's Debt"]), []);
    failsAt(
      check("prompts", []),
      [...AT, "prompts"],
      /expected acceptance prompts for \[\], got \[The Keeper's Debt\]/,
    );
  });
});

test("every kind has a checker, and every failure of one step is reported (none hides another)", () => {
  assert.deepEqual(Object.keys(CHECKERS).sort(), [
    "events",
    "fired",
    "firedOnly",
    "known",
    "log",
    "notFired",
    "party",
    "players",
    "prompts",
    "quests",
    "storage",
  ]);
  const result = checkExpect(
    {
      fired: ["meet_mara"],
      events: { "Storm Night": "active" },
      storage: { visits: 3 },
      party: { area: "Nave" },
    },
    seen,
    AT,
  );
  assert.equal(result.length, 4);
});
