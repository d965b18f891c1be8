import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { damageMultipliers } from "../../src/engine/damage.ts";
import { addTrait, removeTrait } from "../../src/engine/traits.ts";
import { indexWorld } from "../../src/engine/world-index.ts";
import { effectBench, worldWith } from "./helpers.ts";

const trait = (name: string, more: Record<string, unknown>) => ({
  name,
  description: name,
  traitNarrativeEffects: name,
  skills: [],
  attributes: [],
  resources: [],
  startingItems: [],
  abilities: [],
  unlockedBy: [],
  excludedBy: [],
  ...more,
});
const traits = {
  // "arcana" is a skill of the world (a trait naming no skill is an error) that Wren does not have yet.
  skills: {
    climbing: {
      name: "climbing",
      attribute: "strength",
      type: "utility",
      description: "Going up.",
      startingItems: [],
    },
    arcana: {
      name: "arcana",
      attribute: "intelligence",
      type: "utility",
      description: "Lore.",
      startingItems: [],
    },
  },
  items: {
    Wand: { name: "Wand", category: "Tool", description: "Oak.", bonuses: [] },
    Dust: { name: "Dust", category: "Tool", description: "Grey.", bonuses: [] },
  },
  abilities: { Spark: { name: "Spark", description: "A spark.", requirements: [], bonus: 1, cooldown: 1 } },
  combatSettings: { damageTypes: ["blunt", "cold", "fire"] },
  resourceSettings: {
    Mana: {
      name: "Mana",
      initialValue: 3,
      maxValue: 10,
      restRechargeMultiplier: 2,
      gainPerLevel: 1,
      rechargeRate: 1,
      color: "#00f",
    },
  },
  traits: {
    Frail: trait("Frail", {
      resources: [{ resource: "health", modifier: -8 }],
      attributes: [{ attribute: "Strength", modifier: -2 }],
      vulnerabilities: ["blunt", "Cold"],
    }),
    Mystic: trait("Mystic", {
      resources: [{ resource: "mana", modifier: 4 }],
      skills: [
        { skill: "arcana", modifier: 2 },
        { skill: "climbing", modifier: -1 },
      ],
      abilities: ["Steady Hands", "Spark"],
      startingItems: [
        { item: "Rope", quantity: -1 },
        { item: "Wand", quantity: 1 },
        { item: "Dust", quantity: 0 },
      ],
      resistances: ["cold"],
    }),
    Stone: trait("Stone", { immunities: ["blunt", "acid"], resistances: ["blunt"] }),
  },
};

describe("spec 2.3 / resolutions 'Traits at run time': the modifier pipeline", () => {
  test("adding a trait raises each modified resource's maximum and its current value; removing lowers the maximum and clamps", async () => {
    const { ctx } = await effectBench(traits);
    const c = ctx.state.party[0]!;
    assert.deepEqual(c.resources.Mana, { current: 3, max: 10 });
    addTrait(c, "Mystic", ctx.index, false);
    assert.deepEqual(c.resources.Mana, { current: 7, max: 14 }, "resource keys match case-insensitively");
    c.resources.Mana!.current = 14;
    removeTrait(c, "Mystic", ctx.index);
    assert.deepEqual(c.resources.Mana, { current: 10, max: 10 }, "current clamped to the new maximum");
    c.resources.Mana!.current = 2;
    addTrait(c, "Mystic", ctx.index, false);
    removeTrait(c, "Mystic", ctx.index);
    assert.deepEqual(
      c.resources.Mana,
      { current: 6, max: 10 },
      "removal lowers the current value only by the clamp",
    );
  });
  test("negative resource and attribute modifiers lower the values; the current value never goes below 0", async () => {
    const { ctx } = await effectBench(traits);
    const c = ctx.state.party[0]!;
    c.resources.health!.current = 5;
    addTrait(c, "Frail", ctx.index, false);
    assert.deepEqual(c.resources.health, { current: 0, max: 12 });
    assert.equal(c.attributes.strength, 6, "attribute names match case-insensitively");
  });
  test("spec 2.3 skills: a missing skill is created at level 1 and the modifier applies; removal keeps the skill", async () => {
    const { ctx } = await effectBench(traits, { players: [{ premade: "Wren" }] });
    const c = ctx.state.party[0]!;
    assert.deepEqual(c.skills, { climbing: 2 }, "Brave created climbing at 1, then +1");
    addTrait(c, "Mystic", ctx.index, false);
    assert.deepEqual(c.skills, { climbing: 1, arcana: 3 });
    removeTrait(c, "Mystic", ctx.index);
    assert.deepEqual(c.skills, { climbing: 2, arcana: 1 });
  });
  test("abilities are removed only when no other source grants them", async () => {
    const { ctx } = await effectBench(traits, { players: [{ premade: "Wren" }] });
    const c = ctx.state.party[0]!;
    addTrait(c, "Mystic", ctx.index, false);
    assert.deepEqual(c.abilities, ["Steady Hands", "Spark"]);
    removeTrait(c, "Mystic", ctx.index);
    assert.deepEqual(c.abilities, ["Steady Hands"], "Brave still grants Steady Hands");
    removeTrait(c, "Brave", ctx.index);
    assert.deepEqual(c.abilities, []);
  });
  test("a party NPC keeps the abilities of its own record when a trait granting them goes", async () => {
    const { ctx } = await effectBench({
      ...traits,
      storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } },
      npcs: { "Ada Reed": { abilities: ["Spark"] } },
    });
    const ada = ctx.state.party.find((c) => c.name === "Ada Reed")!;
    addTrait(ada, "Mystic", ctx.index, false);
    removeTrait(ada, "Mystic", ctx.index);
    assert.deepEqual(ada.abilities, ["Spark"]);
  });
  test("starting items at run time: negative quantities remove, 0 is a no-op", async () => {
    const { ctx, apply } = await effectBench(traits, { players: [{ premade: "Wren" }] });
    const c = ctx.state.party[0]!;
    assert.deepEqual(c.items, { Rope: 1 });
    apply({ type: "player-traits", operator: "add", value: "Mystic" });
    assert.deepEqual(c.items, { Wand: 1 });
    apply({ type: "player-traits", operator: "remove", value: "Mystic" });
    assert.deepEqual(c.items, { Wand: 1 }, "removing a trait does not take its items back");
  });
  test("adding then removing any sequence of traits restores attributes, skill levels and maxima", async () => {
    const { ctx } = await effectBench(traits, { players: [{ premade: "Wren" }] });
    const names = ["Frail", "Mystic", "Stone", "Brave"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...names), { maxLength: 12 }), (sequence) => {
        const c = structuredClone(ctx.state.party[0]!);
        const original = structuredClone(c);
        for (const name of sequence) {
          if (c.traits.includes(name)) removeTrait(c, name, ctx.index);
          else addTrait(c, name, ctx.index, false);
        }
        for (const name of [...c.traits]) removeTrait(c, name, ctx.index);
        for (const name of original.traits) addTrait(c, name, ctx.index, false);
        assert.deepEqual(c.attributes, original.attributes);
        assert.deepEqual(
          Object.fromEntries(Object.entries(c.resources).map(([k, v]) => [k, v.max])),
          Object.fromEntries(Object.entries(original.resources).map(([k, v]) => [k, v.max])),
        );
        for (const [skill, level] of Object.entries(original.skills)) assert.equal(c.skills[skill], level);
        assert.deepEqual(c.damage, original.damage);
      }),
      { numRuns: 200 },
    );
  });
});

describe("spec 2.3 damage profile multipliers on the character", () => {
  test("vulnerabilities 1.5x, resistances 0.5x, immunities 0x, for defined damage types only", async () => {
    const { ctx } = await effectBench(traits);
    const c = ctx.state.party[0]!;
    assert.deepEqual(c.damage, { blunt: 1, cold: 1, fire: 1 });
    addTrait(c, "Frail", ctx.index, false);
    assert.deepEqual(
      c.damage,
      { blunt: 1.5, cold: 1, fire: 1 },
      '"Cold" is not the defined type "cold" (matched exactly)',
    );
    addTrait(c, "Mystic", ctx.index, false);
    assert.deepEqual(c.damage, { blunt: 1.5, cold: 0.5, fire: 1 });
    addTrait(c, "Stone", ctx.index, false);
    assert.deepEqual(
      c.damage,
      { blunt: 0, cold: 0.5, fire: 1 },
      "an immunity wins over everything; acid is not defined",
    );
    removeTrait(c, "Stone", ctx.index);
    assert.deepEqual(c.damage, { blunt: 1.5, cold: 0.5, fire: 1 });
  });
  test("vulnerable and resistant together multiply (0.75); one kind counts once however many sources hold it", () => {
    const world = worldWith(traits);
    const index = indexWorld(world);
    assert.deepEqual(
      damageMultipliers(index.world, [
        { vulnerabilities: ["fire"] },
        { resistances: ["fire", "cold"] },
        { resistances: ["cold"] },
      ]),
      { blunt: 1, cold: 0.5, fire: 0.75 },
    );
  });
  test("a party NPC also takes its NPC type's profile", async () => {
    const { ctx } = await effectBench({
      ...traits,
      storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } },
      npcTypes: { human: { vulnerabilities: ["fire"], resistances: [], immunities: ["cold"] } },
    });
    assert.deepEqual(ctx.state.party.find((c) => c.name === "Ada Reed")!.damage, {
      blunt: 1,
      cold: 0,
      fire: 1.5,
    });
  });
});
