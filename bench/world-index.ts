/**
 * The shape of a generated world before it is written out: its size, and the
 * names each section holds so that other sections can refer to them.
 */

export interface WorldSize {
  regions: number;
  locationsPerRegion: number;
  npcs: number;
  traits: number;
  traitsPerCategory: number;
  quests: number;
  mechanicalTriggers: number;
  semanticTriggers: number;
  factions: number;
  items: number;
  abilities: number;
  skills: number;
  narrativeEvents: number;
  /** Characters of the pretty-printed `regions` section (its own JSON.stringify(regions, null, 2)). */
  regionsChars: number;
}

export const ATTRIBUTES = ["strength", "agility", "endurance", "wits", "presence", "resolve"];
export const RESOURCES = ["health", "stamina", "focus"];
export const DAMAGE_TYPES = ["blunt", "piercing", "slashing", "fire", "cold", "poison"];

export interface WorldIndex {
  realm: string;
  regions: string[];
  /** Location name -> its region and its area names. */
  locations: Map<string, { region: string; areas: string[] }>;
  startLocation: string;
  npcs: string[];
  factions: string[];
  traits: string[];
  items: string[];
  abilities: string[];
  skills: string[];
  quests: string[];
  /** Quest name -> its objective ids (only quests that have objectives). */
  objectives: Map<string, string[]>;
  events: string[];
}
