import assert from "node:assert/strict";
import { test } from "node:test";
import { effectBench } from "../helpers.ts";

const extra = {
  traits: {
    Calm: {
      name: "Calm",
      description: "Quiet.",
      traitNarrativeEffects: "Quiet.",
      skills: [],
      attributes: [{ attribute: "wits", modifier: 2 }],
      resources: [],
      startingItems: [],
      abilities: ["Steady Hands"],
      unlockedBy: [],
      excludedBy: [],
    },
    "7": {
      name: "7",
      description: "Lucky.",
      traitNarrativeEffects: "Lucky.",
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
const player = (ctx: Awaited<ReturnType<typeof effectBench>>["ctx"], name = "Player") =>
  ctx.state.party.find((c) => c.name === name)!;

test("player-traits add appends a trait to every party character, through the modifier pipeline", async () => {
  const { ctx, apply } = await effectBench(extra, { players: [{ name: "Ann" }, { name: "Bo" }] });
  assert.equal(apply({ type: "player-traits", operator: "add", value: "Brave" }).status, "applied");
  for (const name of ["Ann", "Bo"]) {
    const c = player(ctx, name);
    assert.deepEqual(c.traits, ["Brave"]);
    assert.equal(c.attributes.strength, 9);
    assert.equal(c.resources.health!.max, 25);
    assert.deepEqual(c.abilities, ["Steady Hands"]);
  }
});

test("player-traits add with an array adds each; numbers and booleans are read as trait names", async () => {
  const { ctx, apply } = await effectBench(extra);
  apply({ type: "player-traits", operator: "add", value: ["Brave", 7] });
  assert.deepEqual(player(ctx).traits, ["Brave", "7"]);
  assert.equal(
    apply({ type: "player-traits", operator: "add", value: "Brave" }).status,
    "unchanged",
    "already held",
  );
});

test("player-traits remove takes one trait away and reverses its modifiers", async () => {
  const { ctx, apply } = await effectBench(extra, { players: [{ premade: "Wren" }] });
  const before = structuredClone(player(ctx, "Wren"));
  apply({ type: "player-traits", operator: "remove", value: "Brave" });
  const after = player(ctx, "Wren");
  assert.deepEqual(after.traits, []);
  assert.equal(after.attributes.strength, before.attributes.strength! - 1);
  assert.equal(after.resources.health!.max, before.resources.health!.max - 5);
  assert.deepEqual(after.abilities, []);
  assert.equal(apply({ type: "player-traits", operator: "remove", value: "Brave" }).status, "unchanged");
});

test("player-traits set replaces all traits", async () => {
  const { ctx, apply } = await effectBench(extra, { players: [{ premade: "Wren" }] });
  apply({ type: "player-traits", operator: "set", value: ["Calm", "7"] });
  const wren = player(ctx, "Wren");
  assert.deepEqual(wren.traits, ["Calm", "7"]);
  assert.equal(wren.attributes.strength, 9, "Brave's +1 removed from the premade's 9+1");
  assert.equal(wren.attributes.wits, 13);
  assert.deepEqual(wren.abilities, ["Steady Hands"], "Calm also grants it");
});

test("an unknown trait key is skipped and noted", async () => {
  const { ctx, apply } = await effectBench(extra);
  const trace = apply({ type: "player-traits", operator: "add", value: ["Ghost", "Calm"] });
  assert.equal(trace.status, "applied");
  assert.match(trace.note!, /unknown trait "Ghost" skipped/);
  assert.deepEqual(player(ctx).traits, ["Calm"]);
});

test("scope player: player-traits hits only the targets unless target allPlayers", async () => {
  const { ctx, apply } = await effectBench(extra, { players: [{ name: "Ann" }, { name: "Bo" }] });
  apply({ type: "player-traits", operator: "add", value: "Calm" }, { scope: "player", targets: ["Bo"] });
  assert.deepEqual(player(ctx, "Ann").traits, []);
  assert.deepEqual(player(ctx, "Bo").traits, ["Calm"]);
  apply(
    { type: "player-traits", operator: "add", value: "7", target: "allPlayers" },
    { scope: "player", targets: ["Bo"] },
  );
  assert.deepEqual(player(ctx, "Ann").traits, ["7"]);
});
