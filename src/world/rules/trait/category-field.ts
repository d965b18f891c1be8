import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "trait/category-field",
  severity: "warning",
  description:
    "A trait's `category` names an existing category whose `traits` list does not include the trait.",
  why: "A trait belongs to a category only by being listed in that category's `traits` (docs/format.md, traits); the engine ignores a `category` field on the trait. An author who set the field expects the trait in that tab of the character creator, but it is not there.",
  messages: {
    notListed:
      'Trait "{trait}" says category "{category}", but it is not in traitCategories["{category}"].traits, so it is not in that category. Add "{trait}" to that list (the "category" field on a trait has no effect).',
  },
  examples: {
    bad: {
      traitCategories: { Flaws: { name: "Flaws", maxSelections: 1, traits: [] } },
      traits: { Brave: { category: "Flaws" } },
    },
    good: { traits: { Brave: { category: "Virtues" } } },
  },
  check({ world, report }) {
    for (const [key, trait] of Object.entries(world.traits)) {
      if (trait.category === undefined || !Object.hasOwn(world.traitCategories, trait.category)) continue;
      const category = world.traitCategories[trait.category]!;
      if (category.traits.includes(key)) continue;
      report({
        path: ["traits", key, "category"],
        messageId: "notListed",
        data: { trait: key, category: trait.category },
        related: [
          {
            path: ["traitCategories", trait.category, "traits"],
            message: `the traits of "${trait.category}"`,
          },
        ],
      });
    }
  },
});
