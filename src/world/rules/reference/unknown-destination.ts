import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { destinationNames, isPlaceType, PLACE_KINDS } from "../names.ts";
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
    // The path of a report is built only for a report: most conditions and effects name no place.
    const check = (type: unknown, value: unknown, path: JsonPath, messageId: "effect" | "condition") => {
      if (!isPlaceType(type) || typeof value !== "string") return;
      const known = names.get(type);
      if (!known || known.has(value)) return;
      report({
        path: [...path, "value"],
        messageId,
        data: { kind: PLACE_KINDS[type], name: JSON.stringify(value), suggestion: didYouMean(value, known) },
      });
    };
    const conditions = rawConditions(raw);
    for (let i = 0; i < conditions.length; i++) {
      const { path, condition } = conditions[i]!;
      if (condition.operator === "equals") check(condition.type, condition.value, path, "condition");
    }
    const effects = rawEffects(raw);
    for (let i = 0; i < effects.length; i++) {
      const { path, effect } = effects[i]!;
      check(effect.type, effect.value, path, "effect");
    }
  },
});
