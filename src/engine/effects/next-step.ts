import { isQuest, questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** The next-step hints: per quest, and party-wide. */
export function applyQuestNextStepSet(
  effect: EffectOf<"quest-next-step-set">,
  ctx: EffectContext,
): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  questEntry(ctx, effect.questId).nextStep = { text: effect.text, source: effect.source };
  return changed();
}

export function applyQuestNextStepClear(
  effect: EffectOf<"quest-next-step-clear">,
  ctx: EffectContext,
): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  const entry = questEntry(ctx, effect.questId);
  if (entry.nextStep === null) return unchanged("no next step to clear");
  entry.nextStep = null;
  return changed();
}

export function applyPartyNextStepSet(
  effect: EffectOf<"party-next-step-set">,
  ctx: EffectContext,
): EffectOutcome {
  ctx.state.partyNextStep = { text: effect.text, source: effect.source };
  return changed();
}

export function applyPartyNextStepClear(
  _effect: EffectOf<"party-next-step-clear">,
  ctx: EffectContext,
): EffectOutcome {
  if (ctx.state.partyNextStep === null) return unchanged("no next step to clear");
  ctx.state.partyNextStep = null;
  return changed();
}
