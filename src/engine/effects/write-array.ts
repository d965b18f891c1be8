import { setOwn } from "../own.ts";
import type { Json } from "../ports.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/**
 * `write-array`: `set` replaces the array, `add` appends the element (also
 * when already present), `remove` removes EVERY occurrence of the element, so
 * that `read-array notContains` holds afterwards. The current value is read
 * like `read-array` ([] when missing or not an array). A new array is stored
 * each time, so earlier readings (traces) never change.
 */
export function applyWriteArray(effect: EffectOf<"write-array">, ctx: EffectContext): EffectOutcome {
  const stored = ctx.state.storage[effect.key];
  const current: Json[] = Array.isArray(stored) ? stored : [];
  let next: Json[];
  if (effect.operator === "set") next = [...(effect.value as Json[])];
  else if (effect.operator === "add") next = [...current, effect.value as Json];
  else {
    next = current.filter((element) => element !== effect.value);
    if (next.length === current.length && Array.isArray(stored))
      return unchanged("the element is not in the array");
  }
  setOwn(ctx.state.storage, effect.key, next);
  return changed();
}
