import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `party-next-step-clear`: the party-wide next-step hint is removed. */
export function applyPartyNextStepClear(
  _effect: EffectOf<"party-next-step-clear">,
  ctx: EffectContext,
): EffectOutcome {
  if (ctx.state.partyNextStep === null) return unchanged("no next step to clear");
  ctx.state.partyNextStep = null;
  return changed();
}
