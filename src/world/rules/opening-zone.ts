import type { JsonPath } from "../diagnostic.ts";
import type { World } from "../schema/world.ts";
import { isPlainObject } from "../values.ts";
import { type AreaInfo, areasByLocation, locationsByArea, quoteList } from "./names.ts";

/**
 * Where each story start can open, as the engine picks it (resolutions, Story
 * starts): one of `locations`, then one of `locationAreas` that belongs to it,
 * or any of its areas when none does. Used by the rules that keep story NPCs
 * out of the opening scene (spec 2.1).
 *
 * A start with no `locations` opens anywhere; only the areas it names count as
 * its zone then, since warning about every NPC of the world would say nothing.
 */
export interface OpeningPlace {
  location: string;
  /** area -> the story-start entry that put it in the zone; null when the location has no areas. */
  areas: Map<string, JsonPath> | null;
  /** The story-start entry that put the location in the zone. */
  origin: JsonPath;
}

export interface OpeningZone {
  start: string;
  places: Map<string, OpeningPlace>;
  /** `startingPartyNPCs`: they are meant to be in the opening scene. */
  party: Set<string>;
}

export interface Geography {
  areas: ReadonlyMap<string, ReadonlyMap<string, AreaInfo>>;
  zones: OpeningZone[];
}

export function openingZones(world: World, raw: Readonly<Record<string, unknown>>): Geography {
  const areas = areasByLocation(raw);
  const owners = locationsByArea(areas);
  const locations = isPlainObject(raw.locations) ? raw.locations : {};
  const zones: OpeningZone[] = [];
  for (const [start, record] of Object.entries(world.storyStarts)) {
    const places = new Map<string, OpeningPlace>();
    const at = (...rest: (string | number)[]): JsonPath => ["storyStarts", start, ...rest];
    record.locations.forEach((location, index) => {
      if (!Object.hasOwn(locations, location) || places.has(location)) return;
      const own = areas.get(location);
      if (!own || own.size === 0) {
        places.set(location, { location, areas: null, origin: at("locations", index) });
        return;
      }
      const picked = new Map<string, JsonPath>();
      record.locationAreas.forEach((area, i) => {
        if (own.has(area) && !picked.has(area)) picked.set(area, at("locationAreas", i));
      });
      if (picked.size === 0) for (const area of own.keys()) picked.set(area, at("locations", index));
      places.set(location, { location, areas: picked, origin: at("locations", index) });
    });
    if (record.locations.length === 0) {
      record.locationAreas.forEach((area, i) => {
        for (const location of owners.get(area) ?? []) {
          let place = places.get(location);
          if (!place) {
            place = { location, areas: new Map(), origin: at("locationAreas", i) };
            places.set(location, place);
          }
          if (!place.areas!.has(area)) place.areas!.set(area, at("locationAreas", i));
        }
      });
    }
    if (places.size > 0) zones.push({ start, places, party: new Set(record.startingPartyNPCs ?? []) });
  }
  return { areas, zones };
}

/** `story start "A"` or `story starts "A", "B"`, for messages. */
export function startsPhrase(starts: readonly string[]): string {
  return `${starts.length === 1 ? "story start" : "story starts"} ${quoteList(starts)}`;
}
