import type { Position } from "../../engine/index.ts";
import { indexWorld, isKnown } from "../../engine/index.ts";
import type { World } from "../../world/schema/index.ts";

/**
 * What the realm map shows (spec 2.4, resolutions "Geography"): the regions
 * of one realm on their grid of whole cells (+x east, +y north), the empty
 * cells of the realm's rectangle (filled with random terrain, rule 5), and
 * the locations at their offsets from their region's centre. Regions without
 * a realm are not part of any realm map (spec 2.4), so they are listed, not
 * drawn. Coordinates here are world units with y pointing north; svg.ts
 * turns them into a picture.
 */
export interface RealmMap {
  realm: string;
  realmKnown: boolean;
  /** World units per region cell (`locationSettings.regionSize`, 100 when unset or not positive). */
  regionSize: number;
  /** The realm's rectangle in cells; null when no region is in the realm. */
  bounds: GridBounds | null;
  regions: MapRegion[];
  /** Cells of the rectangle with no region; null when there are too many to list (drawn as one backdrop). */
  terrain: { x: number; y: number }[] | null;
  locations: MapLocation[];
  party: MapParty | null;
  /** Regions drawn on no realm map: no `realm` (or an empty one). */
  regionsWithoutRealm: string[];
  /** Locations of this realm's regions whose centre is outside their region's cell. */
  locationsOutsideCell: string[];
}

export interface GridBounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

export interface MapRegion {
  key: string;
  x: number;
  y: number;
  known: boolean;
}

export interface MapLocation {
  key: string;
  region: string;
  /** Offset from the region centre, as written. */
  x: number;
  y: number;
  radius: number;
  /** Absolute position: region cell * regionSize + offset (east and north of the centre of cell 0,0). */
  east: number;
  north: number;
  known: boolean;
  areas: string[];
}

export interface MapParty {
  region: string;
  location: string;
  area: string;
  east: number;
  north: number;
}

export interface MapOptions {
  /** Known flags that play changed (a save's `state.known`); the world's defaults apply to the rest. */
  known?: Readonly<Record<string, boolean>>;
  /** The party's position (a save's `state.position`); drawn when it is in this realm. */
  party?: Position;
}

/** Above this many cells the empty ones are not listed one by one. */
export const MAX_TERRAIN_CELLS = 10_000;

export type RealmChoice =
  | { ok: true; realm: string }
  | { ok: false; problem: "no-realms" }
  | { ok: false; problem: "unknown-realm"; realms: string[] };

/**
 * The realm to draw: the one named (exactly, or else by case-insensitive
 * match), or the first realm of the world when none is named.
 */
export function chooseRealm(world: World, name?: string): RealmChoice {
  const realms = Object.keys(world.realms);
  if (name === undefined)
    return realms.length > 0 ? { ok: true, realm: realms[0]! } : { ok: false, problem: "no-realms" };
  if (Object.hasOwn(world.realms, name)) return { ok: true, realm: name };
  const folded = realms.filter((r) => r.toLowerCase() === name.trim().toLowerCase());
  if (folded.length === 1) return { ok: true, realm: folded[0]! };
  if (realms.length === 0) return { ok: false, problem: "no-realms" };
  return { ok: false, problem: "unknown-realm", realms };
}

export function buildRealmMap(world: World, realm: string, options: MapOptions = {}): RealmMap {
  const index = indexWorld(world);
  const size = index.regionSize;
  const played = { known: options.known ?? {} };
  const known = (name: string) => isKnown(played, index, name);

  const regions: MapRegion[] = [];
  const regionsWithoutRealm: string[] = [];
  for (const [key, region] of Object.entries(world.regions)) {
    if (region.realm === undefined || region.realm === "") regionsWithoutRealm.push(key);
    else if (region.realm === realm) regions.push({ key, x: region.x, y: region.y, known: known(key) });
  }
  const inRealm = new Map(regions.map((r) => [r.key, r]));

  const locations: MapLocation[] = [];
  const locationsOutsideCell: string[] = [];
  for (const [key, location] of Object.entries(world.locations)) {
    const region = inRealm.get(location.region);
    if (!region) continue;
    const east = region.x * size + location.x;
    const north = region.y * size + location.y;
    if (Math.abs(location.x) > size / 2 || Math.abs(location.y) > size / 2) locationsOutsideCell.push(key);
    locations.push({
      key,
      region: region.key,
      x: location.x,
      y: location.y,
      radius: location.radius,
      east,
      north,
      known: known(key),
      areas: Object.keys(location.areas ?? {}),
    });
  }

  const bounds = boundsOf(regions);
  return {
    realm,
    realmKnown: known(realm),
    regionSize: size,
    bounds,
    regions,
    terrain: bounds ? emptyCells(bounds, regions) : [],
    locations,
    party: partyOf(options.party, inRealm, size),
    regionsWithoutRealm,
    locationsOutsideCell,
  };
}

function boundsOf(regions: MapRegion[]): GridBounds | null {
  if (regions.length === 0) return null;
  return {
    minX: Math.min(...regions.map((r) => r.x)),
    maxX: Math.max(...regions.map((r) => r.x)),
    minY: Math.min(...regions.map((r) => r.y)),
    maxY: Math.max(...regions.map((r) => r.y)),
  };
}

/** Rule 5: the realm map is rectangular and the cells between placed regions are filled. */
function emptyCells(bounds: GridBounds, regions: MapRegion[]): { x: number; y: number }[] | null {
  const x0 = Math.ceil(bounds.minX);
  const y0 = Math.ceil(bounds.minY);
  const columns = Math.floor(bounds.maxX) - x0 + 1;
  const rows = Math.floor(bounds.maxY) - y0 + 1;
  if (columns * rows > MAX_TERRAIN_CELLS) return null;
  const taken = new Set(regions.map((r) => `${r.x},${r.y}`));
  const cells: { x: number; y: number }[] = [];
  // North to south, west to east: reading order on the map.
  for (let y = y0 + rows - 1; y >= y0; y--) {
    for (let x = x0; x < x0 + columns; x++) if (!taken.has(`${x},${y}`)) cells.push({ x, y });
  }
  return cells;
}

function partyOf(
  position: Position | undefined,
  inRealm: Map<string, MapRegion>,
  size: number,
): MapParty | null {
  if (!position) return null;
  const region = inRealm.get(position.region);
  if (!region) return null;
  return {
    region: region.key,
    location: position.location,
    area: position.area,
    east: region.x * size + position.x,
    north: region.y * size + position.y,
  };
}
