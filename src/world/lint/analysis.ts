import type { JsonPath } from "../diagnostic.ts";
import { areasByLocation, locationsByArea } from "../rules/names.ts";
import type { Actor, Condition, EffectSite, WorldModel } from "./model.ts";
import { type Reachability, reachability } from "./reachability.ts";

/**
 * The lint rules share one reachability analysis per checked world: the
 * validator hands every rule the same frozen `raw` value, so the analysis is
 * kept by that object and computed by whichever rule asks first.
 */
const cache = new WeakMap<object, Reachability>();

export function analyse(raw: Readonly<Record<string, unknown>>): Reachability {
  let result = cache.get(raw);
  if (!result) {
    result = reachability(raw);
    cache.set(raw, result);
  }
  return result;
}

const homesCache = new WeakMap<object, ReadonlyMap<string, string[]>>();

/** Area key -> the locations that have an area of that name, once per world for the rules that ask. */
export function areaHomes(raw: Readonly<Record<string, unknown>>): ReadonlyMap<string, string[]> {
  const areas = areasByLocation(raw);
  let homes = homesCache.get(areas);
  if (!homes) {
    homes = locationsByArea(areas);
    homesCache.set(areas, homes);
  }
  return homes;
}

/** A condition as an author reads it: `game-tick greaterThan 5`, `read-number "visits" lessThan 2`. */
export function describeCondition(condition: Condition): string {
  const { type, ref, operator, value } = condition;
  const subject = ref !== "" && type !== "quests-completed" ? `${type} ${JSON.stringify(ref)}` : type;
  return `${subject} ${operator} ${JSON.stringify(value)}`;
}

/** In a sentence: why an actor (a trigger, an engine-made trigger, an event's completion) can never fire. */
function whyNever(analysis: Reachability, key: string, kind: "trigger" | "event"): string {
  if (kind === "event") return `narrative event ${JSON.stringify(key)} is never started`;
  const actor = analysis.model.triggers.get(key);
  const verdict = actor ? analysis.verdicts.get(actor) : undefined;
  if (!actor || !verdict) return `trigger ${JSON.stringify(key)} can never fire`;
  const name = `trigger ${JSON.stringify(key)}`;
  if (verdict.gateClosed)
    return `${name} waits for quest ${JSON.stringify(actor.objectiveOf)} to be accepted, which can never happen`;
  const impossible = verdict.impossible[0];
  if (impossible) return `${name} can never fire: its condition ${describeCondition(impossible)} never holds`;
  const clash = verdict.contradictions[0];
  if (clash) {
    const other = clash.with[0];
    const against = !other
      ? "the others"
      : other.index < 0
        ? "its quest being accepted"
        : describeCondition(other);
    return `${name} can never fire: its condition ${describeCondition(clash.condition)} cannot hold together with ${against}`;
  }
  return `${name} can never fire`;
}

/** Every effect of a type that can apply somewhere (typed or in a script), with the actor it belongs to. */
export function effectSites(analysis: Reachability, type: string) {
  const out: { site: EffectSite; actor: Actor }[] = [];
  for (const actor of analysis.model.actors) {
    for (const site of actor.effects) if (site.type === type) out.push({ site, actor });
  }
  return out;
}

/** Why the effect of an actor that cannot fire never applies, for a related message. */
export function whyActorNever(analysis: Reachability, actor: Actor): string {
  if (actor.kind === "event") return whyNever(analysis, actor.key, "event");
  if (actor.kind === "made-objective")
    return `quest ${JSON.stringify(actor.objectiveOf)} can never be accepted, which its engine-made objective trigger waits for`;
  return whyNever(analysis, actor.key, "trigger");
}

/** Related positions a report lists for the effects that never apply, at most. */
const MAX_NEVER_APPLIES = 5;

/**
 * The effects among `sites` whose `field` names `name` literally, when none
 * of them can apply: why the first one never does (for the message), and
 * each one with its reason (the first MAX_NEVER_APPLIES, as related
 * positions; `what` names the effect). Null when no effect names it.
 */
export function neverApplies(
  analysis: Reachability,
  sites: readonly { site: EffectSite; actor: Actor }[],
  field: string,
  name: string,
  what: (site: EffectSite) => string,
): { first: string; related: { path: JsonPath; message: string }[] } | null {
  const mine = sites.filter(({ site }) => site.fields[field] === name && !site.computed.includes(field));
  if (mine.length === 0) return null;
  const shown = mine.slice(0, MAX_NEVER_APPLIES).map(({ site, actor }) => ({
    site,
    reason: whyActorNever(analysis, actor),
  }));
  return {
    first: shown[0]!.reason,
    related: shown.map(({ site, reason }) => ({
      path: site.path,
      message: `${what(site)} never applies: ${reason}`,
    })),
  };
}

/** The `write-*` effect types, in the order write sites are listed by type. */
export const WRITE_TYPES = ["write-number", "write-string", "write-boolean", "write-array"] as const;

/** One place that writes a storage key. */
export interface WriteSite {
  /** The effect, or the script that assigns the key. */
  path: JsonPath;
  /** The key itself: the `key` field of a typed effect, else `path`. */
  keyPath: JsonPath;
  /** For messages: `trigger "x"`, `the script of trigger "x" (line 3)`. */
  where: string;
  /** The write-* type of an effect; absent for a script's assignment to `storage`. */
  type?: (typeof WRITE_TYPES)[number];
}

const writeSitesCache = new WeakMap<WorldModel, Map<string, WriteSite[]>>();

/**
 * Storage key -> where it is written with a literal key, in model order (the
 * actors in turn: each one's effects, typed and script, then its script's
 * assignments). Keys first appear in the map in that order too.
 */
export function writeSitesByKey(model: WorldModel): Map<string, WriteSite[]> {
  const cached = writeSitesCache.get(model);
  if (cached) return cached;
  const out = new Map<string, WriteSite[]>();
  const add = (key: string, site: WriteSite) => {
    const list = out.get(key);
    if (list) list.push(site);
    else out.set(key, [site]);
  };
  for (const actor of model.actors) {
    for (const effect of actor.effects) {
      const key = effect.fields.key;
      const type = WRITE_TYPES.find((write) => write === effect.type);
      if (type === undefined || typeof key !== "string" || effect.computed.includes("key")) continue;
      add(key, {
        path: effect.path,
        keyPath: effect.index === undefined ? effect.path : [...effect.path, "key"],
        where: effect.where,
        type,
      });
    }
    for (const site of actor.scriptWrites)
      add(site.key, { path: site.path, keyPath: site.path, where: site.where });
  }
  writeSitesCache.set(model, out);
  return out;
}
