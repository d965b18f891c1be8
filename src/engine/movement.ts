import type { StepContext } from "./context.ts";
import { arriveAt } from "./geography.ts";
import { isKnown, markArrival } from "./known.ts";
import { type MoveRefusal, refusalReason } from "./outcome.ts";
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
export function moveByIntent(
  ctx: StepContext,
  intent: IntentAnswer | null,
  actor: string | null = null,
): MovementTrace | null {
  if (!intent || (!TRAVEL.has(intent.intent) && intent.intent !== "move")) return null;
  const target = typeof intent.target === "string" ? intent.target.trim() : "";
  const trace: MovementTrace = { intent: intent.intent, target, moved: false };
  const refuse = (why: MoveRefusal) => refused(ctx, trace, actor, why);
  if (target === "") return refuse({ why: "no-destination", place: "" });
  if (intent.intent === "move") return moveWithin(ctx, trace, actor);
  // A travel target may name an area of another location ("walk to the Fish Market"): go there through its location.
  const byArea = ctx.index.locationsByName.has(target.toLowerCase()) ? undefined : areaElsewhere(ctx, target);
  const key = byArea?.location ?? ctx.index.locationsByName.get(target.toLowerCase());
  if (key === undefined) return refuse({ why: "unknown-place", place: target });
  const world = ctx.index.world;
  const region = world.regions[world.locations[key]!.region];
  if (!region) return refuse({ why: "no-region", place: key });
  if (region.realm && !isKnown(ctx.state, ctx.index, region.realm))
    return refuse({ why: "unknown-realm", place: key, realm: region.realm });
  if (ctx.state.position.location === key) {
    if (byArea) return moveWithin(ctx, { ...trace, intent: "move", target: byArea.area }, actor);
    return refuse({ why: "already-at", place: key });
  }
  const arrival = arriveAt(ctx.index, key)!;
  if (byArea) arrival.area = byArea.area;
  ctx.state.position = arrival;
  markArrival(ctx.state, ctx.index, arrival);
  ctx.recorder.outcomes.push({
    type: "moved",
    actor,
    how: intent.intent === "teleport" ? "teleported" : "travelled",
    location: key,
    area: arrival.area,
  });
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

function moveWithin(ctx: StepContext, trace: MovementTrace, actor: string | null): MovementTrace {
  const position = ctx.state.position;
  const areas = ctx.index.world.locations[position.location]?.areas ?? {};
  const area = Object.keys(areas).find((a) => a.trim().toLowerCase() === trace.target.toLowerCase());
  if (area === undefined)
    return refused(ctx, trace, actor, { why: "no-area", place: position.location, area: trace.target });
  if (area === position.area) return refused(ctx, trace, actor, { why: "already-in", place: area });
  position.area = area;
  ctx.recorder.outcomes.push({ type: "moved", actor, how: "area", location: position.location, area });
  return { ...trace, moved: true, to: place(position) };
}

/**
 * A move the world's rules did not carry out: the trace keeps the reason in words, the narrators get
 * it as data (a "refused" outcome), so they never read the words back.
 */
function refused(ctx: StepContext, trace: MovementTrace, actor: string | null, refusal: MoveRefusal) {
  ctx.recorder.outcomes.push({ type: "refused", actor, act: "move", target: trace.target, ...refusal });
  return { ...trace, reason: refusalReason(refusal) };
}

function place(p: { realm: string; region: string; location: string; area: string }) {
  return { realm: p.realm, region: p.region, location: p.location, area: p.area };
}
