import { setOwn } from "../own.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `write-boolean`: `set` to the value, or `toggle` the value read like `read-boolean` (false when missing or not a boolean). */
export function applyWriteBoolean(effect: EffectOf<"write-boolean">, ctx: EffectContext): EffectOutcome {
  const stored = ctx.state.storage[effect.key];
  if (effect.operator === "set" && typeof effect.value !== "boolean")
    return unchanged("set needs a boolean value");
  const next = effect.operator === "toggle" ? !(stored === true) : effect.value === true;
  if (stored === next) return unchanged("same value");
  setOwn(ctx.state.storage, effect.key, next);
  return changed();
}
