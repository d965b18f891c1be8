import {
  makesObjectiveTrigger,
  objectiveTriggerKey,
  objectiveQuestOf as questOfObjective,
} from "../world/objectives.ts";
import type { Trigger, World } from "../world/schema/index.ts";
import { normaliseKey } from "./conditions/spec.ts";
import { setOwn } from "./own.ts";

/**
 * Lookups derived from a world once and shared by every session on it: the
 * state never copies the world, so the engine reads names through this index
 * (case-insensitive keys, region grid, default known flags, engine-made
 * triggers). Built lazily and cached per world object.
 */
export interface WorldIndex {
  world: World;
  regionSize: number;
  /** Normalised resource key -> the key as written in resourceSettings. */
  resourceKeys: Map<string, string>;
  /** Normalised attribute name -> the name as written in attributeNames. */
  attributeNames: Map<string, string>;
  /** Lower-cased location name -> location key (travel targets are case-insensitive). */
  locationsByName: Map<string, string>;
  /** "x,y" -> region keys on that grid cell, in map order. */
  regionsByCell: Map<string, string[]>;
  /** Entity name -> known when nothing in play changed it (resolutions "Geography"). */
  defaultKnown: Record<string, boolean>;
  /** The `{questId}_objective` triggers the engine adds for detailed quests (resolutions "Quests"). */
  madeTriggers: Record<string, Trigger>;
  /** The trigger map before any script edit: the world's triggers, then the engine-made ones. */
  baseTriggers: Record<string, Trigger>;
  damageTypes: Set<string>;
}

const cache = new WeakMap<World, WorldIndex>();

export function indexWorld(world: World): WorldIndex {
  const cached = cache.get(world);
  if (cached) return cached;
  const index = build(world);
  cache.set(world, index);
  return index;
}

function build(world: World): WorldIndex {
  const resourceKeys = new Map<string, string>();
  for (const key of Object.keys(world.resourceSettings)) resourceKeys.set(normaliseKey(key), key);
  const attributeNames = new Map<string, string>();
  for (const name of world.attributeSettings.attributeNames) attributeNames.set(normaliseKey(name), name);
  const locationsByName = new Map<string, string>();
  for (const key of Object.keys(world.locations)) {
    const lower = key.trim().toLowerCase();
    if (!locationsByName.has(lower)) locationsByName.set(lower, key);
  }
  const regionsByCell = new Map<string, string[]>();
  for (const [key, region] of Object.entries(world.regions)) {
    const cell = `${region.x},${region.y}`;
    const list = regionsByCell.get(cell);
    if (list) list.push(key);
    else regionsByCell.set(cell, [key]);
  }
  const madeTriggers = objectiveTriggers(world);
  const regionSize = world.locationSettings.regionSize > 0 ? world.locationSettings.regionSize : 100;
  return {
    world,
    regionSize,
    resourceKeys,
    attributeNames,
    locationsByName,
    regionsByCell,
    defaultKnown: defaultKnown(world),
    madeTriggers,
    baseTriggers: { ...world.triggers, ...madeTriggers },
    damageTypes: new Set(world.combatSettings.damageTypes),
  };
}

/**
 * Realms, regions, locations and factions are known unless `known: false`;
 * NPCs are unknown unless `known: true`. A name shared by several records is
 * known when any of them is.
 */
function defaultKnown(world: World): Record<string, boolean> {
  const known: Record<string, boolean> = {};
  const mark = (name: string, value: boolean) => {
    setOwn(known, name, (known[name] ?? false) || value);
  };
  for (const section of [world.realms, world.regions, world.locations, world.factions]) {
    for (const [key, record] of Object.entries(section)) mark(key, record.known !== false);
  }
  for (const [key, npc] of Object.entries(world.npcs)) mark(key, npc.known === true);
  return known;
}

/**
 * A `detailed` quest with a non-blank completionCondition gets a trigger named
 * `{questId}_objective`: one `story` condition (the completion condition), one
 * `quest-progress` effect, not recurring, unless the world defines that key.
 */
function objectiveTriggers(world: World): Record<string, Trigger> {
  const made: Record<string, Trigger> = {};
  for (const [key, quest] of Object.entries(world.quests)) {
    if (!makesObjectiveTrigger(quest)) continue;
    const name = objectiveTriggerKey(key);
    if (Object.hasOwn(world.triggers, name)) continue;
    setOwn(made, name, {
      name,
      conditions: [{ type: "story", query: quest.completionCondition }],
      effects: [{ type: "quest-progress", questId: key }],
      recurring: false,
    });
  }
  return made;
}

/** The key of a resource as the world writes it, matched case-insensitively; undefined when none. */
export function resourceKey(index: WorldIndex, name: string): string | undefined {
  return index.resourceKeys.get(normaliseKey(name));
}

export function attributeName(index: WorldIndex, name: string): string | undefined {
  return index.attributeNames.get(normaliseKey(name));
}

/**
 * The quest whose objective trigger this key names (`{questId}_objective` or
 * `{questId}_objective_N`), or undefined when the key follows no such pattern
 * or its prefix is not a quest; memoised per world.
 */
export function objectiveQuestOf(world: World, key: string): string | undefined {
  let memo = objectiveMemo.get(world);
  if (!memo) {
    memo = new Map();
    objectiveMemo.set(world, memo);
  }
  if (memo.has(key)) return memo.get(key);
  const quest = questOfObjective(key, world.quests);
  memo.set(key, quest);
  return quest;
}

const objectiveMemo = new WeakMap<World, Map<string, string | undefined>>();

export function has<T>(map: Record<string, T>, key: string): boolean {
  return Object.hasOwn(map, key);
}
