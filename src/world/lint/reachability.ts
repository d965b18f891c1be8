import { Evaluator, objectiveGate, subjectOf } from "./conditions.ts";
import { applyEffect } from "./effects.ts";
import { Facts } from "./facts.ts";
import { type Actor, buildModel, type Condition, type WorldModel } from "./model.ts";

/**
 * The reachability fixpoint: starting from a new game (every quest hidden,
 * every event inactive, storage empty, the story starts' startingQuests
 * available), every trigger whose conditions can hold adds what its effects
 * and script can do, again and again until nothing grows. Order, timing,
 * `recurring`, `skip` and the effect cap are ignored, which only adds
 * possibilities; so a trigger left out can never fire, whatever the player
 * and the AI do.
 */

export interface Contradiction {
  condition: Condition;
  /** The conditions it cannot hold together with; the objective gate (index -1) when its quest must be accepted. */
  with: Condition[];
  /** `value`: the same subject; `area`: an area that is not one of the location's. */
  kind: "value" | "area";
}

/** Why a trigger can never fire. */
export interface Verdict {
  /** It is an objective trigger (`{questId}_objective`) whose quest can never be accepted. */
  gateClosed: boolean;
  /** Conditions that can never hold, each on its own. */
  impossible: Condition[];
  /** Conditions that can hold on their own but not together with earlier ones. */
  contradictions: Contradiction[];
}

export interface Reachability {
  model: WorldModel;
  /** What can happen in play. */
  facts: Facts;
  /** What the world names at all: every effect and script write, as if every trigger fired. */
  everything: Facts;
  /** Answers about the final facts. */
  evaluator: Evaluator;
  /** The actors (triggers, engine-made triggers, event completions) that can fire. */
  fires: Set<Actor>;
  /** For each authored trigger that can never fire, why. */
  verdicts: Map<Actor, Verdict>;
}

export function reachability(raw: Readonly<Record<string, unknown>>): Reachability {
  const model = buildModel(raw);
  const facts = new Facts();
  const evaluator = new Evaluator(model, facts);
  const fires = new Set<Actor>();
  do {
    facts.grew = false;
    evaluator.reset();
    for (const actor of model.actors) {
      if (fires.has(actor) || !canFire(actor, evaluator)) continue;
      fires.add(actor);
      contribute(actor, facts);
    }
  } while (facts.grew);
  evaluator.reset();
  const verdicts = new Map<Actor, Verdict>();
  for (const actor of model.actors) {
    if (actor.kind === "trigger" && !fires.has(actor)) verdicts.set(actor, judge(actor, evaluator));
  }
  const everything = new Facts();
  for (const actor of model.actors) contribute(actor, everything);
  return { model, facts, everything, evaluator, fires, verdicts };
}

function canFire(actor: Actor, evaluator: Evaluator): boolean {
  // An event's completion effects apply when it completes, which needs it started first.
  if (actor.kind === "event") return evaluator.startedPossible(actor.key);
  const verdict = judge(actor, evaluator);
  return !verdict.gateClosed && verdict.impossible.length === 0 && verdict.contradictions.length === 0;
}

function contribute(actor: Actor, facts: Facts): void {
  if (actor.opaque) facts.anything();
  for (const effect of actor.effects) applyEffect(effect, facts);
  for (const { key } of actor.scriptWrites) if (facts.writes(key).addAny()) facts.grew = true;
  if (actor.scriptWritesAll && facts.storageAll.addAny()) facts.grew = true;
}

/**
 * Why a trigger cannot fire with the evaluator's facts: its objective gate,
 * each condition alone, then each condition with the earlier ones about the
 * same subject (a contradiction names the earlier ones it clashes with).
 */
function judge(actor: Actor, evaluator: Evaluator): Verdict {
  const verdict: Verdict = { gateClosed: false, impossible: [], contradictions: [] };
  const bySubject = new Map<string, Condition[]>();
  if (actor.objectiveOf !== undefined) {
    // Acceptance is the player's answer to the prompt an available quest raises (resolutions "Quests").
    if (!evaluator.availablePossible(actor.objectiveOf)) verdict.gateClosed = true;
    else {
      const gate = objectiveGate(actor, actor.objectiveOf);
      bySubject.set(subjectOf(gate)!, [gate]);
    }
  }
  for (const condition of actor.conditions) {
    const subject = subjectOf(condition);
    if (subject === null) continue;
    const alone = [condition];
    if (!evaluator.satisfiable(alone)) {
      verdict.impossible.push(condition);
      continue;
    }
    const earlier = bySubject.get(subject);
    // With no earlier condition on the subject, together is alone, which holds.
    const together = earlier ? [...earlier, condition] : alone;
    if (earlier && !evaluator.satisfiable(together)) {
      verdict.contradictions.push({
        condition,
        with: culprits(earlier, condition, evaluator),
        kind: "value",
      });
      continue;
    }
    // The kept location and area conditions always agree (each was kept only if they did), so only a
    // new one of either can disagree: other subjects skip the check (placesAgree reads the model alone).
    if (subject === "party-location" || subject === "party-area") {
      const locations = subject === "party-location" ? together : bySubject.get("party-location");
      const areas = subject === "party-area" ? together : bySubject.get("party-area");
      if (locations && areas && !evaluator.placesAgree(locations, areas)) {
        verdict.contradictions.push({
          condition,
          with: subject === "party-location" ? areas : locations,
          kind: "area",
        });
        continue;
      }
    }
    bySubject.set(subject, together);
  }
  return verdict;
}

/** The earlier conditions that clash with this one pairwise, or all of them when only together they do. */
function culprits(earlier: Condition[], condition: Condition, evaluator: Evaluator): Condition[] {
  const pairwise = earlier.filter((other) => !evaluator.satisfiable([other, condition]));
  return pairwise.length > 0 ? pairwise : earlier;
}
