import type { Position } from "./state.ts";
import type { WorldIndex } from "./world-index.ts";

/**
 * Positions on the region grid (spec 2.4, resolutions "Geography"). A party
 * position holds a region and an offset from its centre in
 * [-regionSize/2, +regionSize/2]; crossing an edge enters the neighbouring
 * cell (+x east, +y north) at the far side, carrying the overflow.
 */

/**
 * The position for arriving in a location: the location, its region, that
 * region's realm, the location's coordinates and its first area (the
 * `party-location` cascade of spec 2.2). Undefined for an unknown location.
 */
export function arriveAt(index: WorldIndex, location: string): Position | undefined {
  if (!Object.hasOwn(index.world.locations, location)) return undefined;
  const record = index.world.locations[location]!;
  const region = Object.hasOwn(index.world.regions, record.region)
    ? index.world.regions[record.region]
    : undefined;
  const areas = Object.keys(record.areas ?? {});
  return {
    realm: region?.realm ?? "",
    region: record.region,
    location,
    area: areas[0] ?? "",
    x: record.x,
    y: record.y,
  };
}

/**
 * Moves a position by (dx, dy) units. Overflow past an edge wraps into the
 * adjacent region: moving +10 from x = 45 (region size 100) lands at x = -45 in
 * the region one cell east. Returns undefined when the destination cell holds
 * no region of the world (the engine does not invent terrain). The location
 * and area are kept only while the point stays within the location's radius.
 */
export function moveBy(index: WorldIndex, position: Position, dx: number, dy: number): Position | undefined {
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return undefined;
  const here = Object.hasOwn(index.world.regions, position.region)
    ? index.world.regions[position.region]
    : undefined;
  if (!here) return undefined;
  const size = index.regionSize;
  const [x, cellX] = wrap(position.x + dx, here.x, size);
  const [y, cellY] = wrap(position.y + dy, here.y, size);
  const region = regionAt(index, cellX, cellY, here.realm);
  if (region === undefined) return undefined;
  const realm = index.world.regions[region]!.realm ?? "";
  const location = Object.hasOwn(index.world.locations, position.location)
    ? index.world.locations[position.location]
    : undefined;
  const inside =
    location !== undefined &&
    location.region === region &&
    Math.hypot(location.x - x, location.y - y) <= location.radius;
  return {
    realm,
    region,
    location: inside ? position.location : "",
    area: inside ? position.area : "",
    x,
    y,
  };
}

/** The offset within [-size/2, +size/2] and the cell it falls in. */
export function wrap(offset: number, cell: number, size: number): [number, number] {
  const half = size / 2;
  if (offset > half) {
    const cells = Math.ceil((offset - half) / size);
    return [offset - cells * size, cell + cells];
  }
  if (offset < -half) {
    const cells = Math.ceil((-half - offset) / size);
    return [offset + cells * size, cell - cells];
  }
  return [offset, cell];
}

/** The region on a grid cell, preferring one of the given realm when several share it. */
export function regionAt(index: WorldIndex, x: number, y: number, realm?: string): string | undefined {
  const list = index.regionsByCell.get(`${x},${y}`);
  if (!list) return undefined;
  return list.find((r) => index.world.regions[r]!.realm === realm) ?? list[0];
}
