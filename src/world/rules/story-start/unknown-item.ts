import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-item",
  severity: "error",
  description: "A story start's `startingItems` names an `item` that is not a key of `items`.",
  why: "Story-start items are granted when the game begins (docs/engine.md), looked up by key for their category, slot and bonuses. A name that matches no item grants something the world never described. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Starting item {item} does not exist.{suggestion} Use a key of "items", or define the item there.',
  },
  examples: {
    bad: { storyStarts: { Morning: { startingItems: [{ item: "rope", quantity: 1 }] } } },
    good: { storyStarts: { Morning: { startingItems: [{ item: "Rope", quantity: 1 }] } } },
  },
  check({ world, raw, report }) {
    const items = keysOf(raw, "items");
    if (!items) return;
    for (const [key, start] of Object.entries(world.storyStarts)) {
      (start.startingItems ?? []).forEach(({ item }, index) => {
        if (item.trim() === "" || items.has(item)) return;
        report({
          path: ["storyStarts", key, "startingItems", index, "item"],
          messageId: "unknown",
          data: { item: JSON.stringify(item), suggestion: didYouMean(item, items) },
        });
      });
    }
  },
});
