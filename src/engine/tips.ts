import type { StepContext } from "./context.ts";
import { nextInt } from "./rng.ts";

/**
 * Gameplay tips (tipSettings): with `tipDisplayEnabled` and a non-empty list,
 * a tip is shown after turns whose tick lies in [tipMinimumTurns,
 * tipMaximumTurns] and is a multiple of `tipTurnInterval` counted from
 * tipMinimumTurns. The tip is a seeded pick that differs from the previous one
 * when there is more than one.
 */
export function nextTip(ctx: StepContext): string | null {
  const settings = ctx.index.world.tipSettings;
  const tick = ctx.state.tick;
  if (!settings.tipDisplayEnabled || settings.tips.length === 0) return null;
  if (tick < settings.tipMinimumTurns || tick > settings.tipMaximumTurns) return null;
  const interval = Math.max(1, Math.floor(settings.tipTurnInterval) || 1);
  if ((tick - settings.tipMinimumTurns) % interval !== 0) return null;
  const count = settings.tips.length;
  let at = nextInt(ctx.state.rng, count);
  if (count > 1 && at === ctx.state.lastTip) at = (at + 1 + nextInt(ctx.state.rng, count - 1)) % count;
  ctx.state.lastTip = at;
  return settings.tips[at]!;
}
