import { changed, type EffectContext, type EffectOf, type EffectOutcome } from "./context.ts";

/**
 * `story`: a one-time instruction for the narrator. Deferred: it joins the
 * pending list, and a turn's narration only takes what was pending before the
 * turn began, so it shapes the FOLLOWING narration (spec 2.2; tick 0
 * instructions reach the first turn, never the opening).
 */
export function applyStory(effect: EffectOf<"story">, ctx: EffectContext): EffectOutcome {
  ctx.state.pendingInstructions.push(effect.instruction);
  return changed("for the next narration");
}
