import { defineRule, type Report } from "../../rule.ts";
import { destinationNames, isPlaceType, PLACE_KINDS, quoteList } from "../../rules/names.ts";
import { didYouMean } from "../../suggest.ts";
import { analyse } from "../analysis.ts";
import type { Actor, EffectSite } from "../model.ts";

export default defineRule({
  code: "lint/move-nowhere",
  severity: "error",
  description:
    "A `party-*` effect can never move the party: a script pushes one to a place that does not exist, or a `party-area` follows a `party-location` whose location has no such area.",
  why: "Moves go by exact name, and an effect naming no place of the world changes nothing (docs/format.md, triggers). `taleforge check` reports typed effects with unknown names (`reference/unknown-destination`); this rule adds what it cannot see: `party-*` effects that scripts push as object literals, and a `party-area` effect placed after a `party-location` effect in the same list, which moves within the location just arrived at (the `party-location` cascade, docs/engine.md) and so must name one of that location's areas. Only triggers without a script are checked for the second case, since a script may remove the earlier effect. It is an error because such an effect certainly does nothing.",
  messages: {
    script:
      "The script of trigger {trigger} pushes a {type} effect to {name} (line {line}), but no {kind} has that name, so the party would not move.{suggestion} Use the exact key of a {kind}.",
    area: "This party-area effect moves to {area}, but the party-location effect before it takes the party to {location}, whose areas are {areas}: the area move does nothing. Use one of {location}'s areas, or move to the location that has {area}.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "party-location", operator: "set", value: "Fen Hut" },
            { type: "party-area", operator: "set", value: "Loft" },
          ],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "party-location", operator: "set", value: "Old Mill" },
            { type: "party-area", operator: "set", value: "Loft" },
          ],
        },
      },
    },
  },
  check({ raw, report }) {
    const { model } = analyse(raw);
    const names = destinationNames(raw, model.areasOf);
    for (const actor of model.actors) {
      for (const effect of actor.effects) {
        if (effect.index !== undefined || !isPlaceType(effect.type)) continue;
        const name = effect.fields.value;
        const known = names.get(effect.type);
        if (typeof name !== "string" || effect.computed.includes("value") || !known || known.has(name))
          continue;
        report({
          path: effect.path,
          messageId: "script",
          data: {
            trigger: JSON.stringify(actor.key),
            type: effect.type,
            name: JSON.stringify(name),
            line: effect.line ?? 1,
            kind: PLACE_KINDS[effect.type],
            suggestion: didYouMean(name, known),
          },
        });
      }
      // A script may remove the party-location effect, so only script-less lists are certain.
      if (!actor.hasScript) for (const found of areaAfterLocation(actor, model.areasOf)) report(found);
    }
  },
});

/** party-area effects after a party-location effect of the same typed list, naming an area of another location. */
function areaAfterLocation(
  actor: Actor,
  areasOf: ReadonlyMap<string, ReadonlySet<string>>,
): Report<"area">[] {
  const out: Report<"area">[] = [];
  let arrival: EffectSite | undefined;
  for (const effect of actor.effects) {
    if (effect.index === undefined) continue;
    if (effect.type === "party-location") arrival = effect;
    if (effect.type !== "party-area" || !arrival) continue;
    const location = arrival.fields.value as string;
    const area = effect.fields.value as string;
    const areas = areasOf.get(location);
    // An unknown location or area is reference/unknown-destination's.
    if (!areas || areas.has(area) || ![...areasOf.values()].some((other) => other.has(area))) continue;
    out.push({
      path: [...effect.path, "value"],
      messageId: "area",
      data: {
        area: JSON.stringify(area),
        location: JSON.stringify(location),
        areas: areas.size > 0 ? quoteList([...areas]) : "none",
      },
      related: [{ path: arrival.path, message: "the party is moved to this location first" }],
    });
  }
  return out;
}
