import type { EffectType } from "../schema/effects.ts";
import { otherType } from "../schema/exhaustive.ts";
import type { Facts, KeyWrites } from "./facts.ts";
import type { EffectSite } from "./model.ts";

/**
 * What one effect adds to the facts when it applies (spec 2.2, and the
 * engine's effects in src/engine/effects/). A field a script computes at run
 * time may hold anything, so it widens the fact to "every quest", "any
 * value", and so on.
 */

const COMPUTED = Symbol("computed");
type Field = unknown | typeof COMPUTED;

export function applyEffect(effect: EffectSite, facts: Facts): void {
  const field = (name: string): Field => (effect.computed.includes(name) ? COMPUTED : effect.fields[name]);
  // Any string at run time; typed as the schema's types so that a new one is a compile error below.
  const type = effect.type as EffectType;
  switch (type) {
    case "quest-init":
      name(facts, "available", field("value"));
      break;
    case "quest-complete":
      name(facts, "completed", field("questId"));
      break;
    case "quest-progress":
      name(facts, "progressed", field("questId"));
      break;
    case "narrative-event-start":
      name(facts, "started", field("eventId"));
      break;
    case "known-entity":
      // `set false` only hides; `toggle` flips, so it may mark known.
      if (field("operator") !== "set" || field("value") !== false) name(facts, "known", field("entity"));
      break;
    case "write-number":
    case "write-string":
    case "write-boolean":
    case "write-array": {
      const key = field("key");
      if (key !== COMPUTED && typeof key !== "string") break;
      const target = key === COMPUTED ? facts.storageAll : facts.writes(key);
      if (write(type, target, field("operator"), field("value"))) facts.grew = true;
      break;
    }
    // Nothing a condition lint reasons about: the story, objectives, next steps, the party's place and characters.
    case "story":
    case "quest-objective-reveal":
    case "quest-objective-complete":
    case "quest-next-step-set":
    case "quest-next-step-clear":
    case "party-next-step-set":
    case "party-next-step-clear":
    case "party-realm":
    case "party-region":
    case "party-location":
    case "party-area":
    case "player-resource":
    case "player-traits":
      break;
    default:
      otherType(type);
  }
}

type Named = "available" | "completed" | "progressed" | "started" | "known";

/** Adds a named quest, event or entity; a computed name may be any of them. */
function name(facts: Facts, kind: Named, value: Field): void {
  if (value === COMPUTED) {
    const flag = `${kind}All` as const;
    if (!facts[flag]) {
      facts[flag] = true;
      facts.grew = true;
    }
  } else if (typeof value === "string") facts.addTo(facts[kind], value);
}

/** Adds what a write-* effect can store; returns whether anything grew. */
function write(type: string, target: KeyWrites, operator: Field, value: Field): boolean {
  switch (type) {
    case "write-number":
      // Arithmetic on a stored number reaches values no list can hold.
      return operator === "set" && typeof value === "number"
        ? target.number.add(value)
        : target.number.addAny();
    case "write-string":
      return typeof value === "string" ? target.string.add(value) : target.string.addAny();
    case "write-boolean":
      if (operator === "set" && typeof value === "boolean") return target.boolean.add(value);
      if (operator === "set" && value !== COMPUTED) return false;
      return [target.boolean.add(true), target.boolean.add(false)].some(Boolean);
    default: {
      let grew = !target.array;
      target.array = true;
      if (operator === "remove") return grew;
      if (operator === "set" && Array.isArray(value)) {
        for (const element of value) grew = target.elements.add(element) || grew;
        return grew;
      }
      if (operator === "add" && value !== COMPUTED) return target.elements.add(value) || grew;
      return target.elements.addAny() || grew;
    }
  }
}
