import { clamp } from "../traits.ts";
import { resourceKey } from "../world-index.ts";
import {
  changed,
  type EffectContext,
  type EffectOf,
  type EffectOutcome,
  recipients,
  unchanged,
} from "./context.ts";

/**
 * `player-resource`: add, subtract, multiply, divide or set the current value
 * of a resource (key matched case-insensitively) on each recipient, clamped
 * to [0, max]. Dividing by zero leaves the value unchanged.
 */
export function applyPlayerResource(effect: EffectOf<"player-resource">, ctx: EffectContext): EffectOutcome {
  const key = resourceKey(ctx.index, effect.resource);
  if (key === undefined) return unchanged(`no resource "${effect.resource}"`);
  if (effect.operator === "divide" && effect.value === 0)
    return unchanged("division by zero leaves the value unchanged");
  const hit = recipients(ctx, effect.target);
  if (hit.length === 0) return unchanged("no character to apply it to");
  const notes: string[] = [];
  let any = false;
  for (const character of hit) {
    const value = character.resources[key];
    if (!value) continue;
    const next = clamp(combine(effect.operator, value.current, effect.value), value.max);
    if (next !== value.current) {
      any = true;
      ctx.recorder.outcomes.push({
        type: "resource",
        actor: character.name,
        resource: key,
        from: value.current,
        to: next,
      });
    }
    notes.push(`${character.name} ${value.current} -> ${next}`);
    value.current = next;
  }
  return any ? changed(notes.join(", ")) : unchanged(notes.join(", ") || "no character holds it");
}

export function combine(
  operator: "add" | "subtract" | "multiply" | "divide" | "set",
  current: number,
  value: number,
) {
  switch (operator) {
    case "add":
      return current + value;
    case "subtract":
      return current - value;
    case "multiply":
      return current * value;
    case "divide":
      return current / value;
    case "set":
      return value;
  }
}
