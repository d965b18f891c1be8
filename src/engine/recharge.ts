import type { StepContext } from "./context.ts";
import type { TurnTrace } from "./trace.ts";
import { clamp } from "./traits.ts";

/**
 * After each turn every party member's resources recharge by the resource's
 * `rechargeRate`, times `restRechargeMultiplier` when the turn's intent was
 * `sleep`, clamped to [0, max]. A negative rate drains.
 */
export function recharge(ctx: StepContext, sleeping: boolean): TurnTrace["recharge"] {
  const changes: TurnTrace["recharge"] = [];
  for (const [key, definition] of Object.entries(ctx.index.world.resourceSettings)) {
    const amount = definition.rechargeRate * (sleeping ? definition.restRechargeMultiplier : 1);
    if (!Number.isFinite(amount) || amount === 0) continue;
    for (const character of ctx.state.party) {
      const value = character.resources[key];
      if (!value) continue;
      const next = clamp(value.current + amount, value.max);
      if (next === value.current) continue;
      changes.push({ character: character.name, resource: key, before: value.current, after: next });
      value.current = next;
    }
  }
  return changes;
}
