import { isQuest, questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `quest-next-step-clear`: the quest's next-step hint is removed. */
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
