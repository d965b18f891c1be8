import type { World } from "../../world/schema/index.ts";

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
  /** The chosen game mode asks for few hints ("hints sparingly", "no hints", "rarely hint"). */
  sparseHints: boolean;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function worldFacts(world: World | undefined, gameMode: string | null | undefined): WorldFacts {
  const w = record(world);
  const npcNames = Object.keys(record(w.npcs)).slice(0, 5000);
  const regionLocations = new Map<string, string[]>();
  const locationAreas = new Map<string, string[]>();
  const locationNames: string[] = [];
  for (const [name, location] of Object.entries(record(w.locations)).slice(0, 20_000)) {
    locationNames.push(name);
    locationAreas.set(name, Object.keys(record(record(location).areas)).slice(0, 200));
    const region = record(location).region;
    if (typeof region !== "string") continue;
    const list = regionLocations.get(region);
    if (list) list.push(name);
    else regionLocations.set(region, [name]);
  }
  const style = [
    typeof w.narratorStyle === "string" ? w.narratorStyle : "",
    ...Object.values(record(record(w.aiInstructions).generateStory)).map((v) =>
      typeof v === "string" ? v : "",
    ),
  ]
    .join(" ")
    .toLowerCase();
  const terse = /\b(short sentences|spare|terse|concise|brief|clipped|economical)\b/.test(style);
  const mode = typeof gameMode === "string" ? record(record(w.gameModes)[gameMode]) : {};
  const modeText = [mode.instructions, mode.description]
    .map((v) => (typeof v === "string" ? v : ""))
    .join(" ")
    .toLowerCase();
  const sparseHints = /\b(hints? sparingly|no hints|rarely hint|few hints|without hints)\b/.test(modeText);
  return { npcNames, regionLocations, locationAreas, locationNames, terse, sparseHints };
}
