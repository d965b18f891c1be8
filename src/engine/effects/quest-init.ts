import { isQuest, moveQuest, questStatus } from "../quests.ts";
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
