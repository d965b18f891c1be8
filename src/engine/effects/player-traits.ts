import { addTrait, removeTrait } from "../traits.ts";
import {
  changed,
  type EffectContext,
  type EffectOf,
  type EffectOutcome,
  recipients,
  unchanged,
} from "./context.ts";

/**
 * `player-traits`: add (each listed trait), remove (each), or set (replace all
 * traits by the list) on each recipient, through the modifier pipeline of
 * traits.ts. Values are trait keys; numbers and booleans are read as their
 * text. Unknown trait keys are skipped and noted.
 */
export function applyPlayerTraits(effect: EffectOf<"player-traits">, ctx: EffectContext): EffectOutcome {
  const names = [...new Set((Array.isArray(effect.value) ? effect.value : [effect.value]).map(String))];
  const unknown = names.filter((n) => !Object.hasOwn(ctx.index.world.traits, n));
  const known = names.filter((n) => Object.hasOwn(ctx.index.world.traits, n));
  const hit = recipients(ctx, effect.target);
  let any = false;
  for (const character of hit) {
    const held = { ...character.items };
    if (effect.operator === "set") {
      for (const held of [...character.traits])
        if (!known.includes(held)) any = removeTrait(character, held, ctx.index) || any;
      for (const name of known) any = addTrait(character, name, ctx.index, true) || any;
    } else if (effect.operator === "add") {
      for (const name of known) any = addTrait(character, name, ctx.index, true) || any;
    } else {
      for (const name of names) any = removeTrait(character, name, ctx.index) || any;
    }
    recordItems(ctx, character.name, held, character.items);
  }
  const notes = [`on ${hit.map((c) => c.name).join(", ") || "nobody"}`];
  if (unknown.length > 0 && effect.operator !== "remove")
    notes.push(`unknown trait ${unknown.map((n) => `"${n}"`).join(", ")} skipped`);
  return any ? changed(notes.join("; ")) : unchanged(notes.join("; "));
}

/** A trait's starting items given on the way: an "item" outcome per item whose count changed. */
function recordItems(
  ctx: EffectContext,
  actor: string,
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
): void {
  for (const item of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const change = (after[item] ?? 0) - (before[item] ?? 0);
    if (change !== 0) ctx.recorder.outcomes.push({ type: "item", actor, item, change });
  }
}
