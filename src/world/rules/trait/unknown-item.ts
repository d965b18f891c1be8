import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "trait/unknown-item",
  severity: "warning",
  description: "A trait's `startingItems[].item` is not a key of `items`.",
  why: "A trait's starting items are granted (or removed) by item key when a character takes the trait. A name that matches no item has no category, description or bonuses to grant; it is usually a typo or a renamed item. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Item "{item}" in the starting items of trait "{trait}" is not a key of items.{suggestion} Use an item key exactly as written, or define the item.',
  },
  examples: {
    bad: { traits: { Brave: { startingItems: [{ item: "rope", quantity: 1 }] } } },
    good: { traits: { Brave: { startingItems: [{ item: "Rope", quantity: 1 }] } } },
  },
  check({ world, raw, report }) {
    // Compare with every item key as written, so an item with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "items");
    if (!known) return;
    for (const [key, trait] of Object.entries(world.traits)) {
      trait.startingItems.forEach(({ item }, i) => {
        if (item.trim() === "" || known.has(item)) return;
        report({
          path: ["traits", key, "startingItems", i, "item"],
          messageId: "unknown",
          data: { item, trait: key, suggestion: didYouMean(item, known) },
        });
      });
    }
  },
});
