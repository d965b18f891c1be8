import { compareEquality, compareMembership, compareNumbers, compareText } from "../operators.ts";
import { matchPattern } from "../pattern.ts";
import {
  CONDITION_TYPES,
  EQUALITY_OPERATORS,
  EVENT_STATUSES,
  NUMERIC_OPERATORS,
  type QUEST_STATUSES,
  TEXT_OPERATORS,
} from "../schema/condition-table.ts";
import type { ConditionType } from "../schema/conditions.ts";
import { otherType } from "../schema/exhaustive.ts";
import type { Facts } from "./facts.ts";
import { type Actor, type Condition, refFieldOf, type WorldModel } from "./model.ts";

/**
 * Whether conditions can hold, given what can happen (Facts): one condition
 * alone, and the conditions of one trigger together (they are evaluated
 * against the same state, resolutions "Triggers"). Every answer errs towards
 * "can hold": false means never.
 *
 * Each condition tests one subject (the tick, a storage key, the party's
 * location, a quest's status...) whose possible values form a domain: a
 * finite set when it is known (the places of the world, the statuses a quest
 * can reach, the values written to a key), the non-negative integers for the
 * tick, any number or string when scripts or arithmetic can write anything,
 * or unknown (player levels, traits, story text, AI-judged conditions).
 */

export type Domain =
  | { kind: "finite"; values: ReadonlySet<unknown> }
  | { kind: "integers" }
  | { kind: "numbers" }
  | { kind: "strings" }
  | { kind: "unknown" };

const UNKNOWN: Domain = { kind: "unknown" };
const INTEGERS: Domain = { kind: "integers" };
const NUMBERS: Domain = { kind: "numbers" };
const STRINGS: Domain = { kind: "strings" };

/** The statuses a quest that can be available can also reach, completed aside, in the order messages list them. */
const ACCEPTED_AND_AFTER: readonly (typeof QUEST_STATUSES)[number][] = [
  "available",
  "accepted",
  "rejected",
  "expired",
  "abandoned",
];
const EVENT_STARTED = EVENT_STATUSES.filter((status) => status !== "inactive");

type Comparison = "numeric" | "text" | "equality" | "membership";

/**
 * The condition types whose values the analysis follows (Evaluator.computeDomain),
 * each with how it compares, read from its operators in the condition table.
 * Any other condition may always hold.
 */
const COMPARISONS: ReadonlyMap<string, Comparison> = new Map(
  (
    [
      "game-tick",
      "read-number",
      "read-string",
      "read-boolean",
      "read-array",
      "party-location",
      "party-area",
      "party-region",
      "party-realm",
      "quest-status",
      "narrative-event-status",
      "known-entity",
      "quests-completed",
    ] as const
  ).map((type) => [type, comparisonOf(CONDITION_TYPES[type].operators)]),
);

function comparisonOf(operators: readonly string[]): Comparison {
  switch (operators) {
    case NUMERIC_OPERATORS:
      return "numeric";
    case TEXT_OPERATORS:
      return "text";
    case EQUALITY_OPERATORS:
      return "equality";
    default:
      return "membership";
  }
}

/** A condition the engine adds: an objective trigger runs only while its quest is accepted. */
export function objectiveGate(actor: Actor, quest: string): Condition {
  return {
    index: -1,
    path: actor.path,
    type: "quest-status",
    operator: "equals",
    value: "accepted",
    ref: quest,
  };
}

/** What a condition is about; conditions with the same subject see the same value. Null: not analysed. */
export function subjectOf(condition: Condition): string | null {
  // Kept on the condition: the fixpoint asks for each condition's subject in every pass.
  if (condition.subject === undefined) condition.subject = subjectFor(condition);
  return condition.subject;
}

function subjectFor(condition: Condition): string | null {
  const { type, ref, value } = condition;
  if (!COMPARISONS.has(type)) return null;
  if (type === "read-array") return `${type}\u0000${ref}\u0000${typeof value}:${String(value)}`;
  // The tick and the party's position are one value each; the others are one per key, quest, event or entity.
  return refFieldOf(type) === undefined ? type : `${type}\u0000${ref}`;
}

/** The possible values of subjects, for one state of the facts (call reset() when the facts grow). */
export class Evaluator {
  private readonly domains = new Map<string, Domain>();

  constructor(
    readonly model: WorldModel,
    readonly facts: Facts,
  ) {}

  reset(): void {
    this.domains.clear();
  }

  /**
   * Whether the quest can become available, and so be accepted: acceptance is
   * the player's answer to the prompt an available quest raises (resolutions "Quests").
   */
  availablePossible(quest: string): boolean {
    const { facts, model } = this;
    return (
      model.startingQuests.has(quest) ||
      (model.quests.has(quest) && (facts.availableAll || facts.available.has(quest)))
    );
  }

  completedPossible(quest: string): boolean {
    const { facts, model } = this;
    if (!model.quests.has(quest)) return false;
    if (facts.completedAll || facts.completed.has(quest)) return true;
    // quest-progress completes an accepted quest, or one accepted later (acceptance needs it available).
    return (facts.progressedAll || facts.progressed.has(quest)) && this.availablePossible(quest);
  }

  startedPossible(event: string): boolean {
    return this.model.events.has(event) && (this.facts.startedAll || this.facts.started.has(event));
  }

  questStatuses(quest: string): Set<string> {
    const out = new Set(["hidden"]);
    if (this.availablePossible(quest)) for (const status of ACCEPTED_AND_AFTER) out.add(status);
    if (this.completedPossible(quest)) out.add("completed");
    return out;
  }

  domainOf(condition: Condition): Domain {
    const subject = subjectOf(condition);
    if (subject === null) return UNKNOWN;
    let domain = this.domains.get(subject);
    if (!domain) {
      domain = this.computeDomain(condition);
      this.domains.set(subject, domain);
    }
    return domain;
  }

  private computeDomain(condition: Condition): Domain {
    const { ref, value } = condition;
    // Any string at run time; typed as the schema's types so that a new one is a compile error below.
    const type = condition.type as ConditionType;
    const { facts, model } = this;
    switch (type) {
      case "game-tick":
        return INTEGERS;
      case "read-number": {
        const numbers = facts.readable(ref).number;
        return numbers.any ? NUMBERS : finite([0, ...numbers.list()]);
      }
      case "read-string": {
        const strings = facts.readable(ref).string;
        return strings.any ? STRINGS : finite(["", ...strings.list()]);
      }
      case "read-boolean": {
        const booleans = facts.readable(ref).boolean;
        return finite(booleans.any ? [false, true] : [false, ...booleans.list()]);
      }
      case "read-array":
        return finite(facts.readable(ref).elements.has(value) ? [false, true] : [false]);
      case "party-location":
      case "party-area":
      case "party-region":
      case "party-realm": {
        const names = model.places[type];
        return names ? { kind: "finite", values: names } : UNKNOWN;
      }
      case "quest-status":
        return finite(model.quests.has(ref) ? this.questStatuses(ref) : ["hidden"]);
      case "narrative-event-status":
        return finite(this.startedPossible(ref) ? ["inactive", ...EVENT_STARTED] : ["inactive"]);
      case "known-entity":
        if (model.entities.has(ref) || facts.knownAll || facts.known.has(ref)) return finite([false, true]);
        return finite([false]);
      case "quests-completed":
        return finite(this.completedPossible(ref) ? [false, true] : [false]);
      // Not reasoned about: the party's levels, resources and traits, the story and the actions.
      case "player-level":
      case "player-resource":
      case "player-traits":
      case "story-text":
      case "action-text":
      case "story":
      case "action":
        return UNKNOWN;
      default:
        otherType(type);
        return UNKNOWN;
    }
  }

  /** Whether the conditions, all about one subject, can hold together. */
  satisfiable(conditions: readonly Condition[]): boolean {
    const first = conditions[0];
    return first === undefined || satisfiable(conditions, this.domainOf(first));
  }

  /**
   * Whether the location and area conditions can hold together: the party's
   * area is always one of its location's areas, or "" (resolutions
   * "Geography": arriving sets the first area; `party-area` and `move` only
   * go to an area of the current location).
   */
  placesAgree(locations: readonly Condition[], areas: readonly Condition[]): boolean {
    const locationNames = this.model.places["party-location"];
    const areaNames = this.model.places["party-area"];
    if (!locationNames || !areaNames || locations.length === 0 || areas.length === 0) return true;
    const okLocations = namesHolding(locationNames, locations);
    const okAreas = namesHolding(areaNames, areas);
    if (okLocations.length === 0 || okAreas.length === 0) return true; // reported as impossible on their own
    if (okAreas.includes("")) return true;
    return okLocations.some((l) => okAreas.some((a) => this.model.areasOf.get(l)?.has(a) ?? false));
  }
}

/**
 * The names for which every condition holds. An `equals` condition allows its
 * own value only, so then that one name is tried rather than every place of
 * the world (hundreds of locations, for each trigger with a place condition).
 */
function namesHolding(names: ReadonlySet<string>, conditions: readonly Condition[]): string[] {
  const pinned = conditions.find((c) => c.operator === "equals");
  const candidates =
    pinned === undefined ? names : names.has(pinned.value as string) ? [pinned.value as string] : [];
  const out: string[] = [];
  for (const name of candidates) if (conditions.every((c) => holds(c, name))) out.push(name);
  return out;
}

function finite(values: Iterable<unknown>): Domain {
  return { kind: "finite", values: new Set(values) };
}

/** The one value an `equals` (or membership) condition pins its subject to. */
function pinOf(condition: Condition): { value: unknown } | undefined {
  if (COMPARISONS.get(condition.type) === "membership") return { value: condition.operator === "contains" };
  return condition.operator === "equals" ? { value: condition.value } : undefined;
}

function inDomain(value: unknown, domain: Domain): boolean {
  switch (domain.kind) {
    case "finite":
      return domain.values.has(value);
    case "integers":
      return Number.isInteger(value) && (value as number) >= 0;
    case "numbers":
      return typeof value === "number";
    case "strings":
      return typeof value === "string";
    default:
      return true;
  }
}

export function satisfiable(conditions: readonly Condition[], domain: Domain): boolean {
  if (domain.kind === "unknown") return true;
  const pin = conditions.map(pinOf).find((p) => p !== undefined);
  if (pin) return inDomain(pin.value, domain) && conditions.every((c) => holds(c, pin.value));
  switch (domain.kind) {
    case "finite":
      for (const value of domain.values) if (conditions.every((c) => holds(c, value))) return true;
      return false;
    case "integers":
    case "numbers":
      return numbersLeft(conditions, domain.kind === "integers");
    case "strings":
      return !containsClash(conditions);
  }
}

/** Whether a value makes the condition hold, as the engine evaluates it (src/engine/conditions/). */
export function holds(condition: Condition, value: unknown): boolean {
  const { type, operator } = condition;
  const expected = condition.value;
  switch (COMPARISONS.get(type)) {
    case "membership":
      // The value is whether the list holds the condition's element.
      return compareMembership(operator, value === true) ?? true;
    case "numeric":
      return typeof value === "number" && (compareNumbers(operator, value, expected as number) ?? true);
    case "text":
      return (
        typeof value === "string" && (compareText(operator, expected as string, value, matchPattern) ?? true)
      );
    case "equality":
      return compareEquality(operator, value, expected) ?? true;
    default:
      return true;
  }
}

/** Whether some number (an integer >= 0 for the tick) meets every bound and avoids every excluded value. */
function numbersLeft(conditions: readonly Condition[], integers: boolean): boolean {
  let low = integers ? 0 : Number.NEGATIVE_INFINITY;
  let lowOpen = false;
  let high = Number.POSITIVE_INFINITY;
  let highOpen = false;
  const excluded = new Set<number>();
  for (const { operator, value } of conditions) {
    const n = value as number;
    if (operator === "notEquals") excluded.add(n);
    else if ((operator === "greaterThan" || operator === "greaterThanOrEqual") && n >= low) {
      lowOpen = n === low ? lowOpen || operator === "greaterThan" : operator === "greaterThan";
      low = n;
    } else if ((operator === "lessThan" || operator === "lessThanOrEqual") && n <= high) {
      highOpen = n === high ? highOpen || operator === "lessThan" : operator === "lessThan";
      high = n;
    }
  }
  if (integers) {
    const first = lowOpen ? Math.floor(low) + 1 : Math.ceil(low);
    const last = highOpen ? Math.ceil(high) - 1 : Math.floor(high);
    if (first > last) return false;
    if (last - first + 1 > excluded.size) return true;
    for (let n = first; n <= last; n++) if (!excluded.has(n)) return true;
    return false;
  }
  if (low > high || (low === high && (lowOpen || highOpen))) return false;
  return !(low === high && excluded.has(low));
}

/** Text that must contain one string and must not contain a part of it. */
function containsClash(conditions: readonly Condition[]): boolean {
  const must = conditions.filter((c) => c.operator === "contains").map((c) => String(c.value).toLowerCase());
  const mustNot = conditions
    .filter((c) => c.operator === "notContains")
    .map((c) => String(c.value).toLowerCase());
  return must.some((m) => mustNot.some((n) => m.includes(n)));
}
