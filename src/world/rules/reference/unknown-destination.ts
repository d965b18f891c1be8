import type { JsonPath } from "../../diagnostic.ts";
import { defineRule, type RuleContext } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { destinationNames, isPlaceType, PLACE_KINDS, type PlaceType } from "../names.ts";
import { rawConditions, rawEffects } from "../triggers.ts";

export default defineRule({
  code: "reference/unknown-destination",
  severity: "error",
  description:
    "A `party-realm`/`party-region`/`party-location`/`party-area` effect, or such a condition with `equals`, names a place that does not exist.",
  why: "Moves are by exact name (docs/format.md, triggers), and an area is a key of some location's `areas`. An effect with an unknown destination moves the party nowhere; an `equals` condition on it can never hold, so its trigger never fires.",
  messages: {
    effect:
      "No {kind} is named {name}, so this effect moves the party nowhere.{suggestion} Use an exact {kind} name (its key).",
    condition:
      'No {kind} is named {name}, so this "equals" condition can never hold.{suggestion} Use an exact {kind} name (its key).',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { effects: [{ type: "party-location", operator: "set", value: "Old Mil" }] } },
    },
    good: {
      triggers: {
        start_sheep: { effects: [{ type: "party-location", operator: "set", value: "Old Mill" }] },
      },
    },
  },
  check({ raw, report }) {
    const names = destinationNames(raw);
    const conditions = rawConditions(raw);
    for (let i = 0; i < conditions.length; i++) {
      const { path, condition } = conditions[i]!;
      if (condition.operator === "equals")
        checkPlace(names, report, condition.type, condition.value, path, "condition");
    }
    const effects = rawEffects(raw);
    for (let i = 0; i < effects.length; i++) {
      const { path, effect } = effects[i]!;
      checkPlace(names, report, effect.type, effect.value, path, "effect");
    }
  },
});

/**
 * One condition or effect. A function of the module, not an arrow function made per check: such a
 * closure loses its optimised code to the next full collection, so checking world after world
 * compiled it again each time. The path of a report is built only for a report: most conditions
 * and effects name no place.
 */
function checkPlace(
  names: ReadonlyMap<PlaceType, ReadonlySet<string>>,
  report: RuleContext<"effect" | "condition">["report"],
  type: unknown,
  value: unknown,
  path: JsonPath,
  messageId: "effect" | "condition",
): void {
  if (!isPlaceType(type) || typeof value !== "string") return;
  const known = names.get(type);
  if (!known || known.has(value)) return;
  report({
    path: [...path, "value"],
    messageId,
    data: { kind: PLACE_KINDS[type], name: JSON.stringify(value), suggestion: didYouMean(value, known) },
  });
}
