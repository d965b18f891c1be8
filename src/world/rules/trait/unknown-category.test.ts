import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-category.ts";

testRule(rule, {
  valid: [
    {},
    { name: "an existing category", patch: { traits: { Brave: { category: "Virtues" } } } },
    {
      name: "a category with its own shape problem still exists",
      patch: {
        traitCategories: { Flaws: { name: "Flaws", maxSelections: "one", traits: [] } },
        traits: { Brave: { category: "Flaws" } },
      },
    },
    {
      name: "skipped while traitCategories is not an object",
      patch: { traitCategories: [], traits: { Brave: { category: "Vices" } } },
    },
  ],
  invalid: [
    {
      name: "case differs",
      patch: { traits: { Brave: { category: "virtues" } } },
      errors: [
        {
          path: ["traits", "Brave", "category"],
          messageId: "unknown",
          data: { trait: "Brave", category: "virtues", suggestion: ' Did you mean "Virtues"?' },
        },
      ],
    },
    {
      name: "no such category",
      patch: { traits: { Brave: { category: "Vices" } } },
      errors: [
        {
          path: ["traits", "Brave", "category"],
          messageId: "unknown",
          data: { trait: "Brave", category: "Vices", suggestion: "" },
        },
      ],
    },
  ],
});
