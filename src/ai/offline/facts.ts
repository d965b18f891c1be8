import type { World } from "../../world/schema/index.ts";
import { locationPoints, type MapPoint } from "./compass.ts";
import { type PlaceWords, placeWords } from "./place-words.ts";
import { type ProperNames, properNames } from "./proper.ts";
import { obj } from "./request.ts";

/** What anyone may know of an NPC (never `hiddenInfo`), for their answers when talked to (answer.ts). */
export interface NpcProfile {
  info: string;
  personality: string[];
  faction: string;
  factionInfo: string;
  gender: string;
}

/**
 * What the offline provider takes from the world once, at creation: names it
 * may recognise and a few voice switches. It reads no hidden field (NPC
 * `hiddenInfo`, quest briefs): whatever it writes comes from the requests or
 * from these public names.
 */
export interface WorldFacts {
  /** Every NPC name of the world (present or not), for "talk to <name>" elsewhere. */
  npcNames: string[];
  /** Region name -> its locations, in map order (to suggest destinations when a region is named). */
  regionLocations: Map<string, string[]>;
  /** Location name -> its areas, in map order (to suggest areas when a move names none of them). */
  locationAreas: Map<string, string[]>;
  /** Every location name (to find the places an instruction is about). */
  locationNames: string[];
  /** The world asks for short sentences ("short", "spare", "terse", "concise", "brief" in its style texts). */
  terse: boolean;
  /** First words of the NPC and location names (lower-cased, "the" left out): echoes keep their capital. */
  nameStarts: ReadonlySet<string>;
  /** The world's proper names, to give a player's echoed words their capitals (proper.ts). */
  proper: ProperNames;
  /** What anyone may know of each NPC (never `hiddenInfo`): their answers when talked to (answer.ts). */
  npcProfiles: Map<string, NpcProfile>;
  /** A story start's text -> its player-facing `description` (the opening of a start written for the narrator). */
  startDescriptions: Map<string, string>;
  /** Kind-of-place nouns of names and descriptions, and area paths ("go to the tavern", "go up"). */
  places: PlaceWords;
  /** Each location's point on its realm's map ("walk north": compass.ts). */
  locationPoints: Map<string, MapPoint>;
}

/** The first word of a name, lower-cased ("" for a blank name). */
export function nameStart(name: string): string {
  return (name.trim().split(/\s+/)[0] ?? "").toLowerCase();
}

/**
 * The facts of each world object read so far: a server makes a provider for every step of every game
 * (a few ms of names and indexes each time), of the same few cached worlds. The facts are never
 * changed once made, and a world object is never changed either (the server caches it by its hash).
 */
const known = new WeakMap<object, WorldFacts>();

/** The world's facts, made once per world object (see `known`). */
export function worldFacts(world: World | undefined): WorldFacts {
  if (world === null || typeof world !== "object") return factsOf(world);
  let facts = known.get(world);
  if (facts === undefined) {
    facts = factsOf(world);
    known.set(world, facts);
  }
  return facts;
}

function factsOf(world: World | undefined): WorldFacts {
  const w = obj(world);
  const npcNames = Object.keys(obj(w.npcs)).slice(0, 5000);
  const regionLocations = new Map<string, string[]>();
  const locationAreas = new Map<string, string[]>();
  const locationNames: string[] = [];
  for (const [name, location] of Object.entries(obj(w.locations)).slice(0, 20_000)) {
    locationNames.push(name);
    locationAreas.set(name, Object.keys(obj(obj(location).areas)).slice(0, 200));
    const region = obj(location).region;
    if (typeof region !== "string") continue;
    const list = regionLocations.get(region);
    if (list) list.push(name);
    else regionLocations.set(region, [name]);
  }
  const style = [
    typeof w.narratorStyle === "string" ? w.narratorStyle : "",
    ...Object.values(obj(obj(w.aiInstructions).generateStory)).map((v) => (typeof v === "string" ? v : "")),
  ]
    .join(" ")
    .toLowerCase();
  const terse = /\b(short sentences|spare|terse|concise|brief|clipped|economical)\b/.test(style);
  const nameStarts = new Set<string>();
  for (const name of [...npcNames.slice(0, 2000), ...locationNames.slice(0, 2000)]) {
    const first = nameStart(name);
    if (first) nameStarts.add(first);
  }
  nameStarts.delete("the");
  const startDescriptions = new Map<string, string>();
  for (const start of Object.values(obj(w.storyStarts)).slice(0, 1000)) {
    const { storyStart, description } = obj(start);
    if (typeof storyStart === "string" && typeof description === "string")
      startDescriptions.set(storyStart.trim(), description.trim());
  }
  const npcProfiles = new Map<string, NpcProfile>();
  const factions = obj(w.factions);
  for (const name of npcNames) {
    const npc = obj(obj(w.npcs)[name]);
    const str = (v: unknown) => (typeof v === "string" ? v.slice(0, 4000) : "");
    const faction = str(npc.faction);
    npcProfiles.set(name, {
      info: str(npc.basicInfo),
      personality: Array.isArray(npc.personality)
        ? npc.personality.filter((p): p is string => typeof p === "string" && p.trim() !== "").slice(0, 4)
        : [],
      faction: faction !== "" && Object.hasOwn(factions, faction) ? faction : "",
      factionInfo:
        faction !== "" && Object.hasOwn(factions, faction) ? str(obj(factions[faction]).basicInfo) : "",
      gender: str(npc.gender),
    });
  }
  return {
    npcProfiles,
    startDescriptions,
    npcNames,
    regionLocations,
    locationAreas,
    locationNames,
    terse,
    nameStarts,
    places: placeWords(world),
    locationPoints: locationPoints(world),
    proper: properNames(world),
  };
}
