import { setOwn } from "./own.ts";
import type { Position, SessionState } from "./state.ts";
import type { WorldIndex } from "./world-index.ts";

/**
 * Known entities: the world's defaults (resolutions "Geography": realms,
 * regions, locations and factions known unless `known: false`, NPCs unknown
 * unless `known: true`) overlaid by what play changed. The state keeps only
 * the differences, so it stays small on large worlds.
 */
export function isKnown(state: Pick<SessionState, "known">, index: WorldIndex, name: string): boolean {
  if (Object.hasOwn(state.known, name)) return state.known[name]!;
  return Object.hasOwn(index.defaultKnown, name) && index.defaultKnown[name]!;
}

export function setKnown(state: SessionState, index: WorldIndex, name: string, value: boolean): void {
  const fallback = Object.hasOwn(index.defaultKnown, name) && index.defaultKnown[name]!;
  if (value === fallback) delete state.known[name];
  else setOwn(state.known, name, value);
}

const defaults = new WeakMap<WorldIndex, Readonly<Record<string, boolean>>>();

/**
 * The full entity -> known map, for snapshots: an object holding play's
 * changes whose prototype is the world's defaults (itself without a
 * prototype, so no inherited name reads as known). Large worlds have
 * hundreds of entities and play changes few, so a snapshot costs only the
 * changes. Reading `map[name] === true` sees both; for a plain copy (scripts,
 * JSON) use flatKnown.
 */
export function knownMap(state: SessionState, index: WorldIndex): Record<string, boolean> {
  let base = defaults.get(index);
  if (!base) {
    // Not frozen: a frozen prototype would forbid the own properties that shadow it.
    base = Object.assign(Object.create(null) as Record<string, boolean>, index.defaultKnown);
    defaults.set(index, base);
  }
  return Object.assign(Object.create(base) as Record<string, boolean>, state.known);
}

/** The same map as one plain object. */
export function flatKnown(state: SessionState, index: WorldIndex): Record<string, boolean> {
  return { ...index.defaultKnown, ...state.known };
}

/** Arriving in a location makes it, its region and its realm known. */
export function markArrival(state: SessionState, index: WorldIndex, position: Position): void {
  for (const name of [position.location, position.region, position.realm]) {
    if (name !== "") setKnown(state, index, name, true);
  }
}
