import { isQuest, progressQuest, questStatus } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `quest-progress`: marks the main objective done; an accepted quest is then completed (resolutions "Quests"). */
export function applyQuestProgress(effect: EffectOf<"quest-progress">, ctx: EffectContext): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  const before = questStatus(ctx, effect.questId);
  if (!progressQuest(ctx, effect.questId, `quest-progress by ${ctx.owner}`)) {
    return unchanged("the main objective was already done");
  }
  const after = questStatus(ctx, effect.questId);
  return changed(
    before === after ? `main objective done; the quest stays ${after}` : `main objective done; ${after}`,
  );
}
