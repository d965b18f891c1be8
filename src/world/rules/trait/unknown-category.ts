import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "trait/unknown-category",
  severity: "error",
  description:
    "A trait's `category` names a category that does not exist in `traitCategories` (docs/format.md, traits).",
  why: "Traits have no category field: a trait belongs to a category only by being listed in that category's `traits`. A `category` value naming a missing category is a validator error in the format, and usually means the trait is in no category at all, so players cannot pick it in character creation.",
  messages: {
    unknown:
      'Trait "{trait}" has category "{category}", which is not a key of traitCategories.{suggestion} Remove the "category" field and list "{trait}" in the `traits` of the category it belongs to: membership comes only from traitCategories.*.traits.',
  },
  examples: {
    bad: { traits: { Brave: { category: "Vices" } } },
    good: { traits: { Brave: { category: "Virtues" } } },
  },
  check({ world, raw, report }) {
    // Compare with every category key as written, so a category with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "traitCategories");
    if (!known) return;
    for (const [key, trait] of Object.entries(world.traits)) {
      const { category } = trait;
      if (category === undefined || known.has(category)) continue;
      report({
        path: ["traits", key, "category"],
        messageId: "unknown",
        data: { trait: key, category, suggestion: didYouMean(category, known) },
      });
    }
  },
});
