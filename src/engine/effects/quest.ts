import { isQuest, moveQuest, progressQuest, questStatus } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `quest-init`: a hidden quest becomes available (spec 3). The value is the quest's map key, exact. */
export function applyQuestInit(effect: EffectOf<"quest-init">, ctx: EffectContext): EffectOutcome {
  const key = effect.value;
  if (!isQuest(ctx, key)) return unchanged(`no quest "${key}"`);
  const status = questStatus(ctx, key);
  if (status !== "hidden") return unchanged(`"${key}" is ${status}, not hidden`);
  moveQuest(ctx, key, "available", `quest-init by ${ctx.owner}`);
  return changed();
}

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

/** `quest-complete`: any status becomes completed (spec 3). */
export function applyQuestComplete(effect: EffectOf<"quest-complete">, ctx: EffectContext): EffectOutcome {
  if (!isQuest(ctx, effect.questId)) return unchanged(`no quest "${effect.questId}"`);
  return moveQuest(ctx, effect.questId, "completed", `quest-complete by ${ctx.owner}`)
    ? changed()
    : unchanged("already completed");
}
