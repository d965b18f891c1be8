import type { StoryStart } from "../world/schema/index.ts";
import { grantItems } from "./items.ts";
import { setOwn } from "./own.ts";
import type { Character } from "./state.ts";
import { addTrait, refreshDamage } from "./traits.ts";
import { attributeName, type WorldIndex } from "./world-index.ts";

/** A player character as the caller asks for it: a premade by name, or made up. */
export type PlayerSpec =
  | { premade: string }
  | { name: string; attributes?: Record<string, number>; traits?: string[] };

/**
 * Character creation (resolutions "Story starts"): every attribute at
 * `startingAttributeValue` (or the given value), every resource at its
 * `initialValue`/`maxValue`, then each trait through the modifier pipeline.
 * The options were checked before (options.ts), so names here are valid.
 */
export function buildPlayer(spec: PlayerSpec, index: WorldIndex): Character {
  const premade =
    "premade" in spec ? index.world.premadeCharacters.find((p) => p.name === spec.premade) : undefined;
  const name = premade ? premade.name : (spec as { name: string }).name;
  const given = premade ? premade.attributes : "name" in spec ? (spec.attributes ?? {}) : {};
  const traits = premade ? premade.traits : "name" in spec ? (spec.traits ?? []) : [];
  const character = blank(name, "player", 1, index);
  for (const [key, value] of Object.entries(given)) {
    const attribute = attributeName(index, key);
    if (attribute !== undefined) setOwn(character.attributes, attribute, value);
  }
  for (const trait of traits) addTrait(character, trait, index, false);
  refreshDamage(character, index);
  return character;
}

/** A party NPC (story start `startingPartyNPCs`): its level and health, its abilities and type's damage profile. */
export function buildPartyNpc(key: string, index: WorldIndex): Character {
  const npc = index.world.npcs[key]!;
  const character = blank(key, "npc", npc.level ?? 1, index);
  for (const [resource, definition] of Object.entries(index.world.resourceSettings)) {
    if (definition.isHealth !== true) continue;
    const value = character.resources[resource]!;
    if (npc.hpMax !== undefined) value.max = npc.hpMax;
    value.current = Math.min(npc.hpCurrent ?? value.max, value.max);
  }
  character.abilities = [...new Set(npc.abilities ?? [])];
  refreshDamage(character, index);
  return character;
}

/**
 * Starting items, in the order of the resolutions: `itemSettings.startingItems`,
 * the character's traits' `startingItems`, the story start's `startingItems`,
 * then the `startingItems` of every skill the character has.
 */
export function grantStartingItems(character: Character, index: WorldIndex, start: StoryStart): void {
  const world = index.world;
  grantItems(character, world.itemSettings.startingItems);
  for (const trait of character.traits) {
    if (Object.hasOwn(world.traits, trait)) grantItems(character, world.traits[trait]!.startingItems);
  }
  grantItems(character, start.startingItems ?? []);
  for (const skill of Object.keys(character.skills)) {
    if (Object.hasOwn(world.skills, skill)) grantItems(character, world.skills[skill]!.startingItems);
  }
}

function blank(name: string, kind: Character["kind"], level: number, index: WorldIndex): Character {
  const world = index.world;
  const attributes: Record<string, number> = {};
  for (const attribute of world.attributeSettings.attributeNames) {
    setOwn(attributes, attribute, world.attributeSettings.startingAttributeValue);
  }
  const resources: Character["resources"] = {};
  for (const [key, definition] of Object.entries(world.resourceSettings)) {
    setOwn(resources, key, { current: definition.initialValue, max: definition.maxValue });
  }
  return {
    name,
    kind,
    level,
    xp: 0,
    attributes,
    skills: {},
    resources,
    traits: [],
    abilities: [],
    items: {},
    damage: {},
  };
}
