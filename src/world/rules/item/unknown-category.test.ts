import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-category.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "an unreadable itemSettings is the shape step's business",
      patch: { itemSettings: { itemCategories: "Tool" }, items: { Rope: { category: "x" } } },
    },
  ],
  invalid: [
    {
      name: "example: a plural of a listed category",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["items", "Rope", "category"],
          messageId: "unknown",
          data: { item: '"Rope"', category: '"Tools"', suggestion: ' Did you mean "Tool"?', valid: '"Tool"' },
        },
      ],
    },
    {
      name: "case counts; an empty list names no valid value",
      patch: { items: { Rope: { category: "tool" } }, itemSettings: { itemCategories: [] } },
      errors: [
        {
          path: ["items", "Rope", "category"],
          messageId: "unknown",
          data: { item: '"Rope"', category: '"tool"', suggestion: "", valid: "(none: the list is empty)" },
        },
      ],
    },
  ],
});
