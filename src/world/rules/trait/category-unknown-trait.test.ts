import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./category-unknown-trait.ts";

testRule(rule, {
  valid: [
    {},
    { name: "an empty category", patch: { traitCategories: { Virtues: { traits: [] } } } },
    { name: '"" is "not set"', patch: { traitCategories: { Virtues: { traits: ["Brave", ""] } } } },
    {
      name: "a trait with its own shape problem still exists",
      patch: {
        traits: { Kind: { name: "Kind" } },
        traitCategories: { Virtues: { traits: ["Brave", "Kind"] } },
      },
    },
  ],
  invalid: [
    {
      patch: { traitCategories: { Virtues: { traits: ["Brave", "brave", "Kind"] } } },
      errors: [
        {
          path: ["traitCategories", "Virtues", "traits", 1],
          messageId: "unknown",
          data: { trait: "brave", category: "Virtues", suggestion: ' Did you mean "Brave"?' },
        },
        {
          path: ["traitCategories", "Virtues", "traits", 2],
          messageId: "unknown",
          data: { trait: "Kind", category: "Virtues", suggestion: "" },
        },
      ],
    },
  ],
});
