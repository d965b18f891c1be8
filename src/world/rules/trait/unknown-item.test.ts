import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-item.ts";

const items = (...names: string[]) => ({
  traits: { Brave: { startingItems: names.map((item) => ({ item, quantity: 1 })) } },
});

testRule(rule, {
  valid: [
    {},
    { name: "no starting items", patch: items() },
    {
      name: "an item with its own shape problem still exists",
      patch: { items: { Lamp: { name: "Lamp" } }, ...items("Rope", "Lamp") },
    },
  ],
  invalid: [
    {
      patch: items("Rope", "Ropes", "Sword"),
      errors: [
        {
          path: ["traits", "Brave", "startingItems", 1, "item"],
          messageId: "unknown",
          data: { item: "Ropes", trait: "Brave", suggestion: ' Did you mean "Rope"?' },
        },
        {
          path: ["traits", "Brave", "startingItems", 2, "item"],
          messageId: "unknown",
          data: { item: "Sword", trait: "Brave", suggestion: "" },
        },
      ],
    },
  ],
});
