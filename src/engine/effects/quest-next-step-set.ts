import { isQuest, questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `quest-next-step-set`: the quest's next-step hint. */
export function applyQuestNextStepSet(
  effect: EffectOf<"quest-next-step-set">,
  ctx: EffectContext,
): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  questEntry(ctx, effect.questId).nextStep = { text: effect.text, source: effect.source };
  return changed();
}
