import type { Actor, Condition, EffectSite } from "./model.ts";
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

/** A condition as an author reads it: `game-tick greaterThan 5`, `read-number "visits" lessThan 2`. */
export function describeCondition(condition: Condition): string {
  const { type, ref, operator, value } = condition;
  const subject = ref !== "" && type !== "quests-completed" ? `${type} ${JSON.stringify(ref)}` : type;
  return `${subject} ${operator} ${JSON.stringify(value)}`;
}

/** In a sentence: why an actor (a trigger, an engine-made trigger, an event's completion) can never fire. */
export function whyNever(analysis: Reachability, key: string, kind: "trigger" | "event"): string {
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
