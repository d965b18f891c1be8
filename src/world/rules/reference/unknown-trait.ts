import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";
import { traitValues } from "../trait-values.ts";

export default defineRule({
  code: "reference/unknown-trait",
  severity: "error",
  description:
    "A `player-traits` condition or effect names a trait (a string value) that is not a key of `traits`.",
  why: "Traits are assigned and tested by their key (docs/format.md, traits). An effect with an unknown name gives characters a bare label with none of the trait's modifiers, abilities or narrative effects; a condition on it never holds.",
  messages: {
    unknown:
      'No trait has the key {trait}.{suggestion} Use the exact key of a trait in "traits", or add the trait.',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { effects: [{ type: "player-traits", operator: "add", value: "brave" }] } },
    },
    good: {
      triggers: { start_sheep: { effects: [{ type: "player-traits", operator: "add", value: "Brave" }] } },
    },
  },
  check({ raw, report }) {
    const traits = keysOf(raw, "traits");
    if (!traits) return;
    for (const { value, path } of traitValues(raw)) {
      // Numbers and booleans are reference/non-string-trait's; other types are the shape step's.
      if (typeof value !== "string" || traits.has(value)) continue;
      report({
        path,
        messageId: "unknown",
        data: { trait: JSON.stringify(value), suggestion: didYouMean(value, traits) },
      });
    }
  },
});
