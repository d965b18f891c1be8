import { perFrozenValue } from "../per-world.ts";
import { didYouMean } from "../suggest.ts";
import { elementsOf, entriesOf, isPlainObject } from "../values.ts";

/**
 * The names that references point at, read from the world as written. A
 * record whose body fails its shape check still exists by its key (its shape
 * error is reported on its own), so existence is judged on keys, not on
 * `ctx.world`, to avoid a second, misleading "unknown name" report.
 */

/**
 * The keys of each section, computed once per (frozen) world: some thirty
 * rules ask for the keys of the same few sections. Read-only, shared.
 */
const sectionKeys = perFrozenValue(
  (value: Record<string, unknown>): ReadonlySet<string> => new Set(Object.keys(value)),
);

/** Keys of a keyed section, or undefined when the section is not an object (shape reports that). Read-only: shared per frozen world. */
export function keysOf(
  raw: Readonly<Record<string, unknown>>,
  section: string,
): ReadonlySet<string> | undefined {
  const value = raw[section];
  return isPlainObject(value) ? sectionKeys(value) : undefined;
}

/** Resource keys and attribute names match trimmed and lowercased (resolutions, "Names and case"). */
export function foldName(name: string): string {
  return name.trim().toLowerCase();
}

/** What a `known-entity` condition or effect may name: keys of these sections. */
export const ENTITY_SECTIONS = ["realms", "regions", "locations", "factions", "npcs"] as const;
export const ENTITY_KINDS = "a realm, region, location, faction or NPC";

export function entityNames(raw: Readonly<Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  for (const section of ENTITY_SECTIONS) for (const key of keysOf(raw, section) ?? []) names.add(key);
  return names;
}

/** One area of one location, with its outgoing paths (string entries only, with their index). */
export interface AreaInfo {
  location: string;
  area: string;
  paths: { target: string; index: number }[];
}

/** location key -> area key -> area, for every location whose `areas` is an object. Read-only: shared per frozen world. */
export const areasByLocation: (
  raw: Readonly<Record<string, unknown>>,
) => ReadonlyMap<string, ReadonlyMap<string, AreaInfo>> = perFrozenValue(collectAreas);

function collectAreas(raw: Readonly<Record<string, unknown>>): Map<string, Map<string, AreaInfo>> {
  const out = new Map<string, Map<string, AreaInfo>>();
  for (let row = 0, rows = entriesOf(raw.locations); row < rows.length; row++) {
    const location = rows[row]![0];
    const record = rows[row]![1];
    if (!isPlainObject(record) || !isPlainObject(record.areas)) continue;
    const areas = new Map<string, AreaInfo>();
    // By index over the keys: destructuring each entry with for...of runs the iterator protocol in
    // the interpreter, and the entries of 1,000 areas would be arrays made for one read.
    const byName = record.areas;
    const names = Object.keys(byName);
    for (let a = 0; a < names.length; a++) {
      const area = names[a]!;
      const body = byName[area];
      const paths: AreaInfo["paths"] = [];
      const targets = elementsOf(isPlainObject(body) ? body.paths : undefined);
      for (let index = 0; index < targets.length; index++) {
        const target = targets[index];
        if (typeof target === "string") paths.push({ target, index });
      }
      areas.set(area, { location, area, paths });
    }
    out.set(location, areas);
  }
  return out;
}

/** area key -> the locations that define an area of that name (names repeat across locations). */
export function locationsByArea(
  areas: ReadonlyMap<string, ReadonlyMap<string, AreaInfo>>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [location, byName] of areas) {
    for (const area of byName.keys()) {
      const list = out.get(area);
      if (list) list.push(location);
      else out.set(area, [location]);
    }
  }
  return out;
}

/** The `party-*` condition and effect types, each with the kind of place it names (for messages). */
export const PLACE_KINDS = {
  "party-realm": "realm",
  "party-region": "region",
  "party-location": "location",
  "party-area": "area",
} as const;
export type PlaceType = keyof typeof PLACE_KINDS;

export function isPlaceType(type: unknown): type is PlaceType {
  return typeof type === "string" && Object.hasOwn(PLACE_KINDS, type);
}

/**
 * `party-*` type -> the names it may take (keys, and every location's area
 * keys); a type is left out when its section is not an object. `areas` is
 * location -> its areas (by key), when the caller already has it.
 */
export function destinationNames(
  raw: Readonly<Record<string, unknown>>,
  areas: ReadonlyMap<string, ReadonlyMap<string, unknown> | ReadonlySet<string>> = areasByLocation(raw),
): Map<PlaceType, ReadonlySet<string>> {
  const out = new Map<PlaceType, ReadonlySet<string>>();
  for (const [type, section] of [
    ["party-realm", "realms"],
    ["party-region", "regions"],
    ["party-location", "locations"],
  ] as const) {
    const keys = keysOf(raw, section);
    if (keys) out.set(type, keys);
  }
  if (isPlainObject(raw.locations)) {
    const names = new Set<string>();
    for (const byName of areas.values()) for (const area of byName.keys()) names.add(area);
    out.set("party-area", names);
  }
  return out;
}

/** `"a", "b"` for messages, cut after a few names. */
export function quoteList(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => JSON.stringify(n));
  return names.length > max ? `${shown.join(", ")} and ${names.length - max} more` : shown.join(", ");
}

/**
 * " Did you mean "key"?" for a quest reference: first a key that differs only
 * in case, then a quest whose shown `name` matches (authors copy the title),
 * then the nearest key.
 */
export function questSuggestion(name: string, quests: unknown): string {
  const wanted = foldName(name);
  const keys: string[] = [];
  let byName: string | undefined;
  for (let row1 = 0, rows1 = entriesOf(quests); row1 < rows1.length; row1++) {
    const key = rows1[row1]![0];
    const record = rows1[row1]![1];
    if (foldName(key) === wanted) return ` Did you mean "${key}"?`;
    if (byName === undefined && isPlainObject(record) && typeof record.name === "string") {
      if (foldName(record.name) === wanted) byName = key;
    }
    keys.push(key);
  }
  return byName !== undefined ? ` Did you mean "${byName}"?` : didYouMean(name, keys);
}
