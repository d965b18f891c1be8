import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createSession } from "../../src/engine/session.ts";
import { DataAi, start, worldWith } from "./helpers.ts";

const more = {
  items: {
    Bread: { name: "Bread", category: "Tool", description: "A loaf.", bonuses: [] },
    Boots: { name: "Boots", category: "Tool", description: "Worn.", bonuses: [] },
  },
  itemSettings: {
    startingItems: [
      { item: "Bread", quantity: 2 },
      { item: "Rope", quantity: 1 },
    ],
  },
  skills: {
    climbing: {
      startingItems: [
        { item: "Boots", quantity: 1 },
        { item: "Bread", quantity: -1 },
      ],
    },
  },
  storyStarts: {
    Morning: {
      startingItems: [
        { item: "Rope", quantity: -1 },
        { item: "Bread", quantity: 0 },
      ],
    },
  },
};

describe("resolutions 'Story starts': which story start", () => {
  const starts = {
    storyStarts: {
      Morning: { isDefault: false },
      Evening: {
        name: "Evening",
        description: "Late.",
        storyStart: "Dusk.",
        locations: [],
        locationAreas: [],
        startingQuests: [],
      },
      Night: {
        name: "Night",
        description: "Dark.",
        storyStart: "Stars.",
        locations: ["Fen Hut"],
        locationAreas: [],
        isDefault: true,
      },
    },
  };
  test("the named one", async () => {
    const { session } = await start(starts, { storyStart: "Evening" });
    assert.equal(session.state.storyStart, "Evening");
  });
  test("else the one with isDefault", async () => {
    const { session } = await start(starts);
    assert.equal(session.state.storyStart, "Night");
  });
  test("else the first", async () => {
    const { session } = await start({
      storyStarts: { ...starts.storyStarts, Night: { ...starts.storyStarts.Night, isDefault: false } },
    });
    assert.equal(session.state.storyStart, "Morning");
  });
  test("an unknown name is a coded error with a suggestion", async () => {
    await assert.rejects(start(starts, { storyStart: "evening" }), {
      code: "options/unknown-story-start",
      message: /Did you mean "Evening"/,
    });
  });
});

describe("resolutions 'Story starts': starting position", () => {
  test("one of the story start's locations, then one of its locationAreas that belongs to it", async () => {
    // The validator reports an area of another location; the engine still copes (validate: false).
    const { session } = await start(
      { storyStarts: { Morning: { locations: ["Old Mill"], locationAreas: ["Porch", "Loft"] } } },
      { validate: false },
    );
    const p = session.state.position;
    assert.deepEqual(p, {
      realm: "Vale",
      region: "Northfield",
      location: "Old Mill",
      area: "Loft",
      x: 0,
      y: 0,
    });
  });
  test("all its areas when no listed area belongs to it; all locations when the list is empty (seeded)", async () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const patch = { storyStarts: { Morning: { locations: [], locationAreas: ["Nowhere"] } } };
      const { session } = await start(patch, { seed, validate: false });
      const p = session.state.position;
      seen.add(`${p.location}/${p.area}`);
    }
    assert.deepEqual([...seen].sort(), ["Fen Hut/Porch", "Old Mill/Loft", "Old Mill/Millyard"]);
  });
  test("the same seed gives the same place", async () => {
    const patch = { storyStarts: { Morning: { locations: [], locationAreas: [] } } };
    const a = await start(patch, { seed: 1234 });
    const b = await start(patch, { seed: 1234 });
    assert.deepEqual(a.session.state.position, b.session.state.position);
  });
  test("the starting location, region and realm are known", async () => {
    const { session } = await start({ regions: { Northfield: { known: false } } });
    assert.equal(session.state.known.Northfield, true);
  });
});

describe("resolutions 'Story starts': the party", () => {
  test("by default one made-up player named Player at the starting attribute and resource values", async () => {
    const { session } = await start();
    const [player] = session.state.party;
    assert.equal(session.state.party.length, 1);
    assert.deepEqual(player, {
      name: "Player",
      kind: "player",
      level: 1,
      xp: 0,
      attributes: { strength: 8, wits: 8 },
      skills: {},
      resources: { health: { current: 20, max: 20 } },
      traits: [],
      abilities: [],
      items: {},
      damage: { blunt: 1, cold: 1 },
    });
  });
  test("a premade takes its attribute values plus its traits' modifiers", async () => {
    const { session } = await start({}, { players: [{ premade: "Wren" }] });
    const wren = session.state.party[0]!;
    assert.deepEqual(wren.attributes, { strength: 10, wits: 11 });
    assert.deepEqual(wren.resources, { health: { current: 25, max: 25 } });
    assert.deepEqual(wren.skills, { climbing: 2 });
    assert.deepEqual(wren.abilities, ["Steady Hands"]);
    assert.deepEqual(wren.traits, ["Brave"]);
  });
  test("a made-up player with attributes (case-insensitive names) and selectable traits", async () => {
    const { session } = await start(
      {},
      { players: [{ name: "Kit", attributes: { WITS: 12 }, traits: ["Brave"] }] },
    );
    assert.deepEqual(session.state.party[0]!.attributes, { strength: 9, wits: 12 });
  });
  test("startingPartyNPCs join the party and are known", async () => {
    const { session } = await start({
      storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } },
      npcs: { "Ada Reed": { level: 4, hpMax: 30, hpCurrent: 22 } },
    });
    const ada = session.state.party[1]!;
    assert.equal(ada.kind, "npc");
    assert.equal(ada.level, 4);
    assert.deepEqual(ada.resources.health, { current: 22, max: 30 });
    assert.equal(session.state.known["Ada Reed"], true);
  });
  test("starting items in order: itemSettings, traits, story start, skills (negative removes, 0 no-op)", async () => {
    const { session } = await start(more, { players: [{ premade: "Wren" }, { name: "Kit" }] });
    // Wren: Bread 2, Rope 1 | trait Rope +1 = 2 | story start Rope -1 = 1, Bread 0 | skill climbing: Boots 1, Bread -1 = 1
    assert.deepEqual(session.state.party[0]!.items, { Bread: 1, Rope: 1, Boots: 1 });
    // Kit has no skill: Bread 2, Rope 1 then Rope -1 removes it
    assert.deepEqual(session.state.party[1]!.items, { Bread: 2 });
  });
  test("startingQuests become available at start (tick 0) and are prompted", async () => {
    const { session } = await start({ storyStarts: { Morning: { startingQuests: ["Lost Sheep"] } } });
    assert.equal(session.state.quests["Lost Sheep"]!.status, "available");
    assert.deepEqual(session.state.quests["Lost Sheep"]!.transitions, [{ status: "available", tick: 0 }]);
    assert.deepEqual(
      session.opening!.prompts.map((p) => p.quest),
      ["Lost Sheep"],
    );
  });
});

describe("character creation errors", () => {
  const cases: [string, unknown, string][] = [
    ["an unknown premade", [{ premade: "Wrenn" }], "player/unknown-premade"],
    ["an unknown trait", [{ name: "A", traits: ["Bold"] }], "player/unknown-trait"],
    ["an unknown attribute", [{ name: "A", attributes: { luck: 3 } }], "player/unknown-attribute"],
    ["a non-number attribute", [{ name: "A", attributes: { wits: "3" } }], "player/invalid"],
    ["a duplicate name, ignoring case", [{ name: "Wren" }, { premade: "Wren" }], "player/duplicate-name"],
    ["an empty list", [], "options/invalid"],
    ["a nameless player", [{ attributes: {} }], "player/invalid"],
    ["a non-object", ["Wren"], "player/invalid"],
  ];
  for (const [name, players, code] of cases) {
    test(`${name} is refused with ${code}`, async () => {
      await assert.rejects(createSession(worldWith(), { ai: new DataAi(), players: players as never }), {
        code,
      });
    });
  }
  test("a made-up player may not pick a trait of no category, nor more than maxSelections of one", async () => {
    const patch = {
      traits: {
        Shy: {
          name: "Shy",
          description: "s",
          traitNarrativeEffects: "s",
          skills: [],
          attributes: [],
          resources: [],
          startingItems: [],
          abilities: [],
          unlockedBy: [],
          excludedBy: [],
        },
      },
    };
    await assert.rejects(
      createSession(worldWith(patch), { ai: new DataAi(), players: [{ name: "A", traits: ["Shy"] }] }),
      {
        code: "player/trait-not-selectable",
      },
    );
    const two = { ...patch, traitCategories: { Virtues: { traits: ["Brave", "Shy"] } } };
    await assert.rejects(
      createSession(worldWith(two), { ai: new DataAi(), players: [{ name: "A", traits: ["Brave", "Shy"] }] }),
      {
        code: "player/too-many-traits",
      },
    );
  });
  test("a party NPC's name is taken", async () => {
    await assert.rejects(
      createSession(worldWith({ storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } } }), {
        ai: new DataAi(),
        players: [{ name: "ada reed" }],
      }),
      { code: "player/duplicate-name" },
    );
  });
});
