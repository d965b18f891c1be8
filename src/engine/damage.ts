import type { World } from "../world/schema/index.ts";
import { setOwn } from "./own.ts";

export interface DamageProfile {
  vulnerabilities?: readonly string[];
  resistances?: readonly string[];
  immunities?: readonly string[];
}

export const VULNERABLE = 1.5;
export const RESISTANT = 0.5;
export const IMMUNE = 0;

/**
 * The multiplier on damage taken for every damage type the world defines
 * (spec 2.3), from the character's traits and, for party NPCs, their NPC
 * type. How several sources combine:
 * - an immunity from any source wins: 0;
 * - otherwise each kind counts once however many sources hold it, and the two
 *   kinds multiply: vulnerable 1.5, resistant 0.5, both 0.75, neither 1.
 * Names that are not defined damage types have no effect (matched exactly,
 * case-sensitive, per the spec).
 */
export function damageMultipliers(world: World, profiles: readonly DamageProfile[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const type of world.combatSettings.damageTypes) {
    if (Object.hasOwn(out, type)) continue;
    const holds = (kind: keyof DamageProfile) => profiles.some((p) => p[kind]?.includes(type) === true);
    if (holds("immunities")) setOwn(out, type, IMMUNE);
    else
      setOwn(out, type, (holds("vulnerabilities") ? VULNERABLE : 1) * (holds("resistances") ? RESISTANT : 1));
  }
  return out;
}

/** The damage profiles that apply to a party member: its traits, then its NPC type. */
export function profilesOf(world: World, traits: readonly string[], npcType?: string): DamageProfile[] {
  const profiles: DamageProfile[] = [];
  for (const name of traits) if (Object.hasOwn(world.traits, name)) profiles.push(world.traits[name]!);
  if (npcType !== undefined && Object.hasOwn(world.npcTypes, npcType))
    profiles.push(world.npcTypes[npcType]!);
  return profiles;
}
