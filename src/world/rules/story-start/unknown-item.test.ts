import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-item.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "no items", patch: { storyStarts: { Morning: { startingItems: [] } } } },
  ],
  invalid: [
    {
      name: "example: case differs",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "startingItems", 0, "item"],
          messageId: "unknown",
          data: { item: '"rope"', suggestion: ' Did you mean "Rope"?' },
        },
      ],
    },
    {
      name: "by index, without a near name",
      patch: {
        storyStarts: {
          Morning: {
            startingItems: [
              { item: "Rope", quantity: 1 },
              { item: "Lantern", quantity: 2 },
            ],
          },
        },
      },
      errors: [
        {
          path: ["storyStarts", "Morning", "startingItems", 1, "item"],
          messageId: "unknown",
          data: { item: '"Lantern"', suggestion: "" },
        },
      ],
    },
  ],
});
