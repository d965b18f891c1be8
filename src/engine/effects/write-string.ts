import { setOwn } from "../own.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `write-string` set: stores the string (replacing a value of any type). */
export function applyWriteString(effect: EffectOf<"write-string">, ctx: EffectContext): EffectOutcome {
  if (ctx.state.storage[effect.key] === effect.value) return unchanged("same value");
  setOwn(ctx.state.storage, effect.key, effect.value);
  return changed();
}
