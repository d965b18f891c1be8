import { damageMultipliers, profilesOf } from "./damage.ts";
import { grantItems } from "./items.ts";
import { setOwn } from "./own.ts";
import type { Character } from "./state.ts";
import { attributeName, resourceKey, type WorldIndex } from "./world-index.ts";

/**
 * The trait modifier pipeline (spec 2.3, resolutions "Traits at run time"),
 * used both at character creation and by `player-traits` effects. Adding and
 * removing the same trait are exact inverses for attributes, skill levels and
 * resource maxima, so a trait can come and go without drift.
 */

/**
 * Gives a character a trait it does not hold: attribute and skill modifiers
 * (a missing skill is created at level 1, then the modifier applies), each
 * modified resource's maximum and current value raised (or lowered) by the
 * modifier, abilities granted, and, when `withItems`, its starting items
 * (negative quantities remove, 0 is a no-op). Returns false when the trait is
 * unknown or already held.
 */
export function addTrait(
  character: Character,
  trait: string,
  index: WorldIndex,
  withItems: boolean,
): boolean {
  const record = Object.hasOwn(index.world.traits, trait) ? index.world.traits[trait]! : undefined;
  if (!record || character.traits.includes(trait)) return false;
  character.traits.push(trait);
  for (const { attribute, modifier } of record.attributes) {
    const name = attributeName(index, attribute);
    // An attribute outside attributeNames is a validation warning; it has no value to modify.
    if (name !== undefined) setOwn(character.attributes, name, (character.attributes[name] ?? 0) + modifier);
  }
  for (const { skill, modifier } of record.skills) {
    const level = Object.hasOwn(character.skills, skill) ? character.skills[skill]! : 1;
    setOwn(character.skills, skill, level + modifier);
  }
  for (const { resource, modifier } of record.resources) {
    const key = resourceKey(index, resource);
    const value = key === undefined ? undefined : character.resources[key];
    if (!value) continue;
    value.max += modifier;
    value.current = clamp(value.current + modifier, value.max);
  }
  for (const ability of record.abilities)
    if (!character.abilities.includes(ability)) character.abilities.push(ability);
  if (withItems) grantItems(character, record.startingItems);
  refreshDamage(character, index);
  return true;
}

/**
 * Takes a trait away: its attribute, skill and resource modifiers are
 * subtracted (the current value is clamped to the new maximum; the skill
 * stays), and its abilities go unless another held trait or the NPC's own
 * record grants them. Items are kept: they were given, not lent. Returns false
 * when the character does not hold the trait.
 */
export function removeTrait(character: Character, trait: string, index: WorldIndex): boolean {
  const at = character.traits.indexOf(trait);
  if (at < 0) return false;
  character.traits.splice(at, 1);
  const record = Object.hasOwn(index.world.traits, trait) ? index.world.traits[trait]! : undefined;
  if (record) {
    for (const { attribute, modifier } of record.attributes) {
      const name = attributeName(index, attribute);
      if (name !== undefined)
        setOwn(character.attributes, name, (character.attributes[name] ?? 0) - modifier);
    }
    for (const { skill, modifier } of record.skills) {
      if (Object.hasOwn(character.skills, skill))
        setOwn(character.skills, skill, character.skills[skill]! - modifier);
    }
    for (const { resource, modifier } of record.resources) {
      const key = resourceKey(index, resource);
      const value = key === undefined ? undefined : character.resources[key];
      if (!value) continue;
      value.max -= modifier;
      value.current = clamp(value.current, value.max);
    }
    const granted = otherAbilitySources(character, index);
    character.abilities = character.abilities.filter((a) => !record.abilities.includes(a) || granted.has(a));
  }
  refreshDamage(character, index);
  return true;
}

function otherAbilitySources(character: Character, index: WorldIndex): Set<string> {
  const sources = new Set<string>();
  for (const name of character.traits) {
    const record = Object.hasOwn(index.world.traits, name) ? index.world.traits[name] : undefined;
    for (const ability of record?.abilities ?? []) sources.add(ability);
  }
  for (const ability of npcRecord(character, index)?.abilities ?? []) sources.add(ability);
  return sources;
}

export function refreshDamage(character: Character, index: WorldIndex): void {
  character.damage = damageMultipliers(
    index.world,
    profilesOf(index.world, character.traits, npcRecord(character, index)?.type),
  );
}

function npcRecord(character: Character, index: WorldIndex) {
  return character.kind === "npc" && Object.hasOwn(index.world.npcs, character.name)
    ? index.world.npcs[character.name]
    : undefined;
}

/** A current resource value stays within [0, max] (and at 0 when the maximum drops below it). */
export function clamp(current: number, max: number): number {
  return Math.min(Math.max(current, 0), Math.max(max, 0));
}
