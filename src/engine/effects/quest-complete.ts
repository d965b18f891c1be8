import { isQuest, moveQuest } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `quest-complete`: any status becomes completed (spec 3). */
export function applyQuestComplete(effect: EffectOf<"quest-complete">, ctx: EffectContext): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  return moveQuest(ctx, effect.questId, "completed", `quest-complete by ${ctx.owner}`)
    ? changed()
    : unchanged("already completed");
}
