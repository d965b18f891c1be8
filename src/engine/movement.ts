import type { StepContext } from "./context.ts";
import { arriveAt } from "./geography.ts";
import { isKnown, markArrival } from "./known.ts";
import type { IntentAnswer } from "./ports.ts";
import type { MovementTrace } from "./trace.ts";

const TRAVEL = new Set(["travel", "fastTravel", "teleport"]);

/**
 * Movement for the intents that move the party (spec 3 "Planning-phase intent
 * types"). travel, fastTravel and teleport go to a location named by the
 * target (case-insensitive), reachable only when the location's region has no
 * realm or a known one (resolutions "Geography"); move goes to an area of the
 * current location. Arriving marks the location, region and realm known.
 */
export function moveByIntent(ctx: StepContext, intent: IntentAnswer | null): MovementTrace | null {
  if (!intent || (!TRAVEL.has(intent.intent) && intent.intent !== "move")) return null;
  const target = typeof intent.target === "string" ? intent.target.trim() : "";
  const trace: MovementTrace = { intent: intent.intent, target, moved: false };
  if (target === "") return { ...trace, reason: "no destination named" };
  if (intent.intent === "move") return moveWithin(ctx, trace);
  // A travel target may name an area of another location ("walk to the Fish Market"): go there through its location.
  const byArea = ctx.index.locationsByName.has(target.toLowerCase()) ? undefined : areaElsewhere(ctx, target);
  const key = byArea?.location ?? ctx.index.locationsByName.get(target.toLowerCase());
  if (key === undefined) return { ...trace, reason: `no location named "${target}"` };
  const world = ctx.index.world;
  const region = world.regions[world.locations[key]!.region];
  if (!region) return { ...trace, reason: `"${key}" lies in no region of the world` };
  if (region.realm && !isKnown(ctx.state, ctx.index, region.realm)) {
    return {
      ...trace,
      reason: `"${key}" lies in the realm "${region.realm}", which the party does not know`,
    };
  }
  if (ctx.state.position.location === key) {
    if (byArea) return moveWithin(ctx, { ...trace, intent: "move", target: byArea.area });
    return { ...trace, reason: `the party is already at "${key}"` };
  }
  const arrival = arriveAt(ctx.index, key)!;
  if (byArea) arrival.area = byArea.area;
  ctx.state.position = arrival;
  markArrival(ctx.state, ctx.index, arrival);
  ctx.recorder.outcomes.push(
    `The party ${intent.intent === "teleport" ? "teleported" : "travelled"} to ${key}.`,
  );
  return { ...trace, moved: true, to: place(arrival) };
}

/** The one location with an area of this name (case-insensitive), or undefined (none, or several). */
function areaElsewhere(ctx: StepContext, name: string): { location: string; area: string } | undefined {
  const wanted = name.toLowerCase();
  let found: { location: string; area: string } | undefined;
  for (const [location, record] of Object.entries(ctx.index.world.locations)) {
    const area = Object.keys(record.areas ?? {}).find((a) => a.trim().toLowerCase() === wanted);
    if (area === undefined) continue;
    if (found) return undefined;
    found = { location, area };
  }
  return found;
}

function moveWithin(ctx: StepContext, trace: MovementTrace): MovementTrace {
  const position = ctx.state.position;
  const areas = ctx.index.world.locations[position.location]?.areas ?? {};
  const area = Object.keys(areas).find((a) => a.trim().toLowerCase() === trace.target.toLowerCase());
  if (area === undefined)
    return { ...trace, reason: `"${position.location}" has no area named "${trace.target}"` };
  if (area === position.area) return { ...trace, reason: `the party is already in "${area}"` };
  position.area = area;
  ctx.recorder.outcomes.push(`The party moved to ${area}.`);
  return { ...trace, moved: true, to: place(position) };
}

function place(p: { realm: string; region: string; location: string; area: string }) {
  return { realm: p.realm, region: p.region, location: p.location, area: p.area };
}
