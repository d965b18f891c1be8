import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "trait/category-unknown-trait",
  severity: "error",
  description: "A name in a trait category's `traits` is not a key of `traits`.",
  why: "A category's `traits` list is what the character creator offers in that tab. A name that matches no trait offers nothing (or a trait the engine cannot find when the player picks it); it is usually a typo or a renamed trait. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Trait "{trait}" in category "{category}" is not a key of traits.{suggestion} Use a trait key exactly as written, define the trait, or remove the name from the list.',
  },
  examples: {
    bad: { traitCategories: { Virtues: { traits: ["Brave", "Kind"] } } },
    good: { traitCategories: { Virtues: { traits: ["Brave"] } } },
  },
  check({ world, raw, report }) {
    // Compare with every trait key as written, so a trait with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "traits");
    if (!known) return;
    for (const [key, category] of Object.entries(world.traitCategories)) {
      category.traits.forEach((trait, i) => {
        if (trait.trim() === "" || known.has(trait)) return;
        report({
          path: ["traitCategories", key, "traits", i],
          messageId: "unknown",
          data: { trait, category: key, suggestion: didYouMean(trait, known) },
        });
      });
    }
  },
});
