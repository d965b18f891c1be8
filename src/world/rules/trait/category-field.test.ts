import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./category-field.ts";

const flaws = (traits: string[]) => ({ Flaws: { name: "Flaws", maxSelections: 1, traits } });

testRule(rule, {
  valid: [
    {},
    { name: "listed in the category it names", patch: { traits: { Brave: { category: "Virtues" } } } },
    {
      name: "a missing category is trait/unknown-category's business",
      patch: { traits: { Brave: { category: "Vices" } } },
    },
    {
      name: "listed in two categories, naming one of them",
      patch: { traitCategories: flaws(["Brave"]), traits: { Brave: { category: "Flaws" } } },
    },
  ],
  invalid: [
    {
      name: "names a category that does not list it",
      patch: { traitCategories: flaws([]), traits: { Brave: { category: "Flaws" } } },
      errors: [
        {
          path: ["traits", "Brave", "category"],
          messageId: "notListed",
          data: { trait: "Brave", category: "Flaws" },
        },
      ],
    },
    {
      name: "listed under another spelling",
      patch: {
        traitCategories: { Virtues: { traits: ["brave"] } },
        traits: { Brave: { category: "Virtues" } },
      },
      errors: [{ path: ["traits", "Brave", "category"], messageId: "notListed" }],
    },
  ],
});
