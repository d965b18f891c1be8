import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { quoteList } from "../names.ts";

export default defineRule({
  code: "item/unknown-category",
  severity: "warning",
  description: "An item's `category` is not one of `itemSettings.itemCategories`.",
  why: "Item categories decide which equipment slots (`itemSettings.itemSlots`) can hold an item. A category that is not listed fits no slot, so the item can be carried but never equipped, and nothing says why. Categories match exactly (case and spaces count).",
  messages: {
    unknown:
      "Item {item} has category {category}, which is not in itemSettings.itemCategories, so it fits no slot.{suggestion} Use one of: {valid}; or add it to itemSettings.itemCategories.",
  },
  examples: {
    bad: { items: { Rope: { category: "Tools" } } },
    good: { items: { Rope: { category: "Tool" } } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("itemSettings")) return;
    const categories = world.itemSettings.itemCategories;
    const known = new Set(categories);
    for (const [key, item] of Object.entries(world.items)) {
      if (known.has(item.category)) continue;
      report({
        path: ["items", key, "category"],
        messageId: "unknown",
        data: {
          item: JSON.stringify(key),
          category: JSON.stringify(item.category),
          suggestion: didYouMean(item.category, categories),
          valid: categories.length > 0 ? quoteList(categories, 12) : "(none: the list is empty)",
        },
      });
    }
  },
});
