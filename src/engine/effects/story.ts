import { changed, type EffectContext, type EffectOf, type EffectOutcome } from "./context.ts";

/**
 * `story`: a one-time instruction for the narrator. Deferred: it joins the
 * pending list, and a turn's narration only takes what was pending before the
 * turn began, so it shapes the FOLLOWING narration (spec 2.2; tick 0
 * instructions reach the first turn, never the opening).
 */
export function applyStory(effect: EffectOf<"story">, ctx: EffectContext): EffectOutcome {
  // A recurring trigger sends its instruction whenever it fires: standing guidance (issue 39).
  if (ctx.recurring)
    ctx.state.pendingStanding = [...(ctx.state.pendingStanding ?? []), ctx.state.pendingInstructions.length];
  ctx.state.pendingInstructions.push(attributed(effect.instruction, ctx));
  return changed("for the next narration");
}

/**
 * On a `scope: "player"` trigger the instruction concerns the players who satisfied it, not the
 * party (issue 39): it is sent as "(for Ana, Bo) <instruction>", so the narrator knows whose story
 * it is. A party-wide instruction is sent as written.
 */
export function attributed(instruction: string, ctx: Pick<EffectContext, "scope" | "targets">): string {
  if (ctx.scope !== "player" || ctx.targets.length === 0) return instruction;
  return `(for ${ctx.targets.join(", ")}) ${instruction}`;
}
