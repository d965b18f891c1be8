import { changed, type EffectContext, type EffectOf, type EffectOutcome } from "./context.ts";

/** `party-next-step-set`: the party-wide next-step hint. */
export function applyPartyNextStepSet(
  effect: EffectOf<"party-next-step-set">,
  ctx: EffectContext,
): EffectOutcome {
  ctx.state.partyNextStep = { text: effect.text, source: effect.source };
  return changed();
}
