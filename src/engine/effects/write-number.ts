import { setOwn } from "../own.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";
import { combine } from "./player-resource.ts";

/**
 * `write-number`: add, subtract, multiply, divide or set. The current value is
 * read like `read-number` (0 when missing or not a number, which the write then
 * replaces). Dividing by zero, or any result that is not a finite number,
 * leaves the stored value unchanged: storage must stay JSON (spec 4 turns NaN
 * and Infinity into null).
 */
export function applyWriteNumber(effect: EffectOf<"write-number">, ctx: EffectContext): EffectOutcome {
  const stored = ctx.state.storage[effect.key];
  const current = typeof stored === "number" && Number.isFinite(stored) ? stored : 0;
  if (effect.operator === "divide" && effect.value === 0)
    return unchanged("division by zero leaves the value unchanged");
  const next = combine(effect.operator, current, effect.value);
  if (!Number.isFinite(next)) return unchanged("the result is not a finite number; value unchanged");
  if (stored === next) return unchanged("same value");
  setOwn(ctx.state.storage, effect.key, next);
  return changed(`${current} -> ${next}`);
}
