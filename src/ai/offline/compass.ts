import type { World } from "../../world/schema/index.ts";
import { obj } from "./request.ts";
import type { Token } from "./text.ts";

/**
 * "walk north", "head east along the road" (issue 35, 7): a compass direction is a way to a
 * place when the world's map puts one there. A location's point on the realm's map is its
 * region's cell (100 units a cell, +x east, +y north) plus its own offset from the cell's centre
 * (docs/format.md, regions and locations). The place a direction leads to is the nearest known
 * location of the realm within 45 degrees of it; none there, and the party stays, saying so.
 */

export interface MapPoint {
  realm: string;
  x: number;
  y: number;
}

/** The size of one region cell in location units (`locationSettings.regionSize`, 100 by default). */
const REGION_SIZE = 100;

/** Every location's point on its realm's map; a location whose region has no cell is left out. */
export function locationPoints(world: World | undefined): Map<string, MapPoint> {
  const w = obj(world);
  const regions = obj(w.regions);
  const size = Number(obj(w.locationSettings).regionSize) || REGION_SIZE;
  const points = new Map<string, MapPoint>();
  for (const [name, raw] of Object.entries(obj(w.locations)).slice(0, 20_000)) {
    const location = obj(raw);
    const region = obj(typeof location.region === "string" ? regions[location.region] : undefined);
    if (typeof region.x !== "number" || typeof region.y !== "number") continue;
    points.set(name, {
      realm: typeof region.realm === "string" ? region.realm : "",
      x: region.x * size + finite(location.x),
      y: region.y * size + finite(location.y),
    });
  }
  return points;
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

const COMPASS: Readonly<Record<string, readonly [number, number]>> = {
  north: [0, 1],
  south: [0, -1],
  east: [1, 0],
  west: [-1, 0],
  northeast: [1, 1],
  northwest: [-1, 1],
  southeast: [1, -1],
  southwest: [-1, -1],
};

/** "northward", "northwards", "northern" -> "north"; null for a word that names no direction. */
function compassWord(word: string): string | null {
  const base = word.replace(/(?:wards?|ern|erly)$/, "");
  return Object.hasOwn(COMPASS, base) ? base : null;
}

/**
 * The compass direction named in the clause of the movement verb at `verb` ("walk north along
 * the road", "head north-east"), as a name ("north", "northeast"); null when none is named.
 */
export function directionAfter(tokens: readonly Token[], verb: number): string | null {
  for (let k = verb + 1; k < tokens.length && tokens[k]!.clause === tokens[verb]!.clause; k++) {
    const first = compassWord(tokens[k]!.raw);
    if (first === null) continue;
    // "north-east", "north east": two words of one direction.
    const second = tokens[k + 1]?.clause === tokens[k]!.clause ? compassWord(tokens[k + 1]!.raw) : null;
    const both = second !== null ? `${first}${second}` : first;
    return Object.hasOwn(COMPASS, both) ? both : first;
  }
  return null;
}

/**
 * The nearest of `candidates` (location names) that lies in the direction from `from`, within 45
 * degrees of it, in the same realm; null when none does (or `from` has no point on the map).
 */
export function locationToward(
  from: string,
  direction: string,
  candidates: readonly string[],
  points: ReadonlyMap<string, MapPoint>,
): string | null {
  const here = points.get(from);
  const way = COMPASS[direction];
  if (!here || !way) return null;
  const length = Math.hypot(way[0], way[1]);
  let best: { name: string; distance: number } | null = null;
  for (const name of candidates) {
    const there = points.get(name);
    if (!there || name === from || there.realm !== here.realm) continue;
    const dx = there.x - here.x;
    const dy = there.y - here.y;
    const along = (dx * way[0] + dy * way[1]) / length;
    const across = Math.abs(dx * way[1] - dy * way[0]) / length;
    if (along <= 0 || across > along) continue;
    const distance = Math.hypot(dx, dy);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Verbs that move along a way ("follow the road north", "take the path west"), not by themselves. */
const ALONG_VERBS = new Set(["follow", "follows", "take", "takes"]);
/** Ways one follows: a road, a river, a coast. */
const WAYS = new Set(
  "road roads path paths track tracks trail trails river stream coast shore highway route way".split(" "),
);

/**
 * Whether the word at `at` moves the party along a way toward a compass direction ("follow the
 * road north", "take the path west"): a verb of following, a way and a direction in its clause.
 */
export function followsWayAt(tokens: readonly Token[], at: number): boolean {
  if (!ALONG_VERBS.has(tokens[at]!.raw)) return false;
  let way = false;
  for (let k = at + 1; k < tokens.length && tokens[k]!.clause === tokens[at]!.clause; k++)
    if (WAYS.has(tokens[k]!.raw)) way = true;
  return way && directionAfter(tokens, at) !== null;
}
