import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export const MAX_TRAIT_DESCRIPTION = 4000;

export default defineRule({
  code: "limit/trait-description",
  severity: "error",
  description: `A trait's \`description\` is longer than ${MAX_TRAIT_DESCRIPTION} characters.`,
  why: `A trait's description is shown to the player in character creation and is capped at ${MAX_TRAIT_DESCRIPTION} raw characters (docs/format.md, traits; docs/rules.md, limit/). Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2. Guidance for the narrator can be longer: it belongs in \`traitNarrativeEffects\`.`,
  messages: {
    length: `The description of trait {name} is {length} characters; the limit is ${MAX_TRAIT_DESCRIPTION}. Shorten it, and move narrator guidance to traitNarrativeEffects.`,
  },
  examples: {
    bad: { traits: { Brave: { description: "e".repeat(MAX_TRAIT_DESCRIPTION + 1) } } },
    good: { traits: { Brave: { description: "e".repeat(MAX_TRAIT_DESCRIPTION) } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.traits); row < rows.length; row++) {
      const key = rows[row]![0];
      const trait = rows[row]![1];
      if (!isPlainObject(trait)) continue;
      const description = trait.description;
      if (typeof description !== "string" || description.length <= MAX_TRAIT_DESCRIPTION) continue;
      report({
        path: ["traits", key, "description"],
        messageId: "length",
        data: { name: JSON.stringify(key), length: description.length },
      });
    }
  },
});
