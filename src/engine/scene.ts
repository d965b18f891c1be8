import type { StepContext } from "./context.ts";
import { isKnown } from "./known.ts";
import type { IntentRequest, SceneView, StoryLine } from "./ports.ts";
import type { WorldIndex } from "./world-index.ts";

/** How many recent story entries the AI sees. */
export const RECENT_STORY = 3;

/** The compact scene the narrator's prompt builder gets (ports.ts SceneView). */
export function sceneOf(ctx: StepContext, openingText?: string): SceneView {
  const { state, index } = ctx;
  const position = state.position;
  const location = Object.hasOwn(index.world.locations, position.location)
    ? index.world.locations[position.location]
    : undefined;
  const area =
    location?.areas && Object.hasOwn(location.areas, position.area)
      ? location.areas[position.area]
      : undefined;
  const scene: SceneView = {
    position: {
      realm: position.realm,
      region: position.region,
      location: position.location,
      area: position.area,
    },
    locationInfo: location?.basicInfo ?? "",
    areaDescription: area?.description ?? "",
    npcsPresent: npcsAt(ctx, position.location, position.area),
    party: state.party.map((c) => ({
      name: c.name,
      level: c.level,
      resources: Object.fromEntries(Object.entries(c.resources).map(([k, v]) => [k, v.current])),
      traits: [...c.traits],
    })),
    recentStory: storySinceSummary(ctx),
  };
  if (openingText !== undefined) scene.openingText = openingText;
  return scene;
}

export function recentStory(ctx: StepContext): string[] {
  return ctx.state.history.story.slice(-RECENT_STORY).map((s) => s.text);
}

/** Entries the narrator would otherwise miss: everything after the summary, at least the last RECENT_STORY, at most RECENT_STORY_MAX. */
export const RECENT_STORY_MAX = 15;

function storySinceSummary(ctx: StepContext): string[] {
  return storySinceSummaryLines(ctx).map((s) => s.text);
}

/** The same entries with their ticks (the judge's history, spec 2.2). */
export function storySinceSummaryLines(ctx: StepContext): StoryLine[] {
  const story = ctx.state.history.story;
  const after = story.length - unsummarisedFrom(ctx);
  const count = Math.min(RECENT_STORY_MAX, Math.max(RECENT_STORY, after));
  return story.slice(-count).map((s) => ({ tick: s.tick, text: s.text }));
}

/**
 * The index of the first story entry the summary does not cover (tick after
 * `summary.upTo`). The history is in tick order, so those entries are its
 * tail: found from the end, a turn reads only them, not the whole history.
 */
export function unsummarisedFrom(ctx: StepContext): number {
  const story = ctx.state.history.story;
  const upTo = ctx.state.summary.upTo;
  let from = story.length;
  while (from > 0 && story[from - 1]!.tick > upTo) from--;
  return from;
}

/** Names of the NPCs present (for the classifier). */
export function npcNamesHere(ctx: StepContext): string[] {
  return npcsAt(ctx, ctx.state.position.location, ctx.state.position.area).map((n) => n.name);
}

/** NPCs whose authored place is the party's location and area, party members excepted. */
function npcsAt(ctx: StepContext, location: string, area: string): SceneView["npcsPresent"] {
  const inParty = new Set(ctx.state.party.map((c) => c.name));
  return (npcsByPlace(ctx.index).get(`${location}\u0000${area}`) ?? [])
    .filter((key) => !inParty.has(key))
    .map((key) => {
      const npc = ctx.index.world.npcs[key]!;
      const entry: SceneView["npcsPresent"][number] = { name: key, info: npc.basicInfo ?? "" };
      // The narrator must not name someone the party has not met (issue 19 item 10).
      if (!isKnown(ctx.state, ctx.index, key)) entry.known = false;
      if (typeof npc.properName === "string" && npc.properName.trim() !== "")
        entry.properName = npc.properName;
      return entry;
    });
}

const placeCache = new WeakMap<WorldIndex, Map<string, string[]>>();

function npcsByPlace(index: WorldIndex): Map<string, string[]> {
  let map = placeCache.get(index);
  if (!map) {
    map = new Map();
    for (const [key, npc] of Object.entries(index.world.npcs)) {
      const at = `${npc.currentLocation}\u0000${npc.currentArea}`;
      const list = map.get(at);
      if (list) list.push(key);
      else map.set(at, [key]);
    }
    placeCache.set(index, map);
  }
  return map;
}

/**
 * Places the classifier may name: the areas of the current location, the
 * locations the party knows or that lie in its region, and the regions it
 * knows plus its own (issue 19 item 10: the classifier is not told of places
 * the party has never heard of, and the prompt stays small in large worlds).
 */
export function placesFor(ctx: StepContext): IntentRequest["places"] {
  const world = ctx.index.world;
  const here = ctx.state.position;
  const changed = ctx.state.known;
  const places = placeLists(ctx.index);
  const out: IntentRequest["places"] = [];
  for (const name of Object.keys(world.locations[here.location]?.areas ?? {}))
    out.push({ name, kind: "area" });
  for (const place of places.locations)
    if (place.region === here.region || placeKnown(changed, place))
      out.push({ name: place.name, kind: "location" });
  for (const place of places.regions)
    if (place.name === here.region || placeKnown(changed, place))
      out.push({ name: place.name, kind: "region" });
  return out;
}

/** isKnown, with the world's default read from the list made once per world. */
function placeKnown(changed: StepContext["state"]["known"], place: Place): boolean {
  return Object.hasOwn(changed, place.name) ? changed[place.name]! : place.known;
}

interface Place {
  name: string;
  region: string;
  /** Known when play changed nothing (isKnown's fallback). */
  known: boolean;
}

const placeLists = perIndex((index) => {
  const world = index.world;
  const known = (name: string) => Object.hasOwn(index.defaultKnown, name) && index.defaultKnown[name]!;
  return {
    locations: Object.keys(world.locations).map(
      (name): Place => ({
        name,
        region: world.locations[name]!.region,
        known: known(name),
      }),
    ),
    regions: Object.keys(world.regions).map((name): Place => ({ name, region: name, known: known(name) })),
  };
});

/** A value derived once per world index (the world never changes under it). */
function perIndex<T>(make: (index: WorldIndex) => T): (index: WorldIndex) => T {
  const cache = new WeakMap<WorldIndex, T>();
  return (index) => {
    let value = cache.get(index);
    if (value === undefined) {
      value = make(index);
      cache.set(index, value);
    }
    return value;
  };
}
