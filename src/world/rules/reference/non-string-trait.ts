import { defineRule } from "../../rule.ts";
import { describeValue } from "../../values.ts";
import { keysOf } from "../names.ts";
import { traitValues } from "../trait-values.ts";

export default defineRule({
  code: "reference/non-string-trait",
  severity: "warning",
  description: "A `player-traits` condition or effect uses a number or boolean where a trait name goes.",
  why: "The format allows numbers and booleans as `player-traits` values, but trait keys are strings, so such a value names no trait: the condition never holds and the effect adds a bare value with no modifiers. It is a warning rather than an error because the shape is legal; it is almost always a slip (a quoted name lost its quotes).",
  messages: {
    notAName:
      'This value is {actual}, which names no trait: trait keys are strings. Write the trait\'s key as a string (e.g. "{example}").',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { conditions: [{ type: "player-traits", operator: "contains", value: true }] },
      },
    },
    good: {
      triggers: {
        start_sheep: { conditions: [{ type: "player-traits", operator: "contains", value: "Brave" }] },
      },
    },
  },
  check({ raw, report }) {
    const traits = [...(keysOf(raw, "traits") ?? [])];
    for (const { value, path } of traitValues(raw)) {
      if (typeof value !== "number" && typeof value !== "boolean") continue;
      // A trait keyed "3" is what `3` was most likely meant to be; otherwise show any real key.
      const example = traits.includes(String(value)) ? String(value) : (traits[0] ?? "Trait Name");
      report({ path, messageId: "notAName", data: { actual: describeValue(value), example } });
    }
  },
});
