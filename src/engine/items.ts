import { setOwn } from "./own.ts";
import type { Character } from "./state.ts";

/**
 * Starting-item records (spec 2.1, 2.3): a positive quantity adds that many of
 * the item, a negative one removes that many (never below zero; an item at zero
 * leaves the inventory), and 0 is a no-op.
 */
export function grantItems(character: Character, list: readonly { item: string; quantity: number }[]): void {
  for (const { item, quantity } of list) {
    if (!Number.isFinite(quantity) || quantity === 0) continue;
    const held = Object.hasOwn(character.items, item) ? character.items[item]! : 0;
    const next = Math.max(0, held + quantity);
    if (next === 0) delete character.items[item];
    else setOwn(character.items, item, next);
  }
}
