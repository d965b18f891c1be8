import { isKnown, setKnown } from "../known.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `known-entity`: `set` to the value, or `toggle` the current state (its value is ignored). */
export function applyKnownEntity(effect: EffectOf<"known-entity">, ctx: EffectContext): EffectOutcome {
  const before = isKnown(ctx.state, ctx.index, effect.entity);
  const after = effect.operator === "toggle" ? !before : effect.value === true;
  if (after === before) return unchanged(`"${effect.entity}" is already ${before ? "known" : "unknown"}`);
  setKnown(ctx.state, ctx.index, effect.entity, after);
  return changed(`"${effect.entity}" is now ${after ? "known" : "unknown"}`);
}
