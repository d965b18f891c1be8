import { isQuest, moveQuest, questStatus } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/**
 * `quest-init`: a hidden quest becomes available (spec 3). The value is the quest's map key, exact.
 * An expired quest is offered again: the player never answered it, so without this a world could
 * never bring back a quest whose offer lapsed (the spec's table starts only from hidden; what else
 * moves a quest is "not shown"). A quest the player turned down, took on or finished stays as it is.
 */
export function applyQuestInit(effect: EffectOf<"quest-init">, ctx: EffectContext): EffectOutcome {
  const key = effect.value;
  if (!isQuest(ctx, key)) return unchanged(`no quest "${key}"`);
  const status = questStatus(ctx, key);
  if (status !== "hidden" && status !== "expired")
    return unchanged(`"${key}" is ${status}, not hidden or expired`);
  moveQuest(
    ctx,
    key,
    "available",
    `quest-init by ${ctx.owner}${status === "expired" ? " (offered again)" : ""}`,
  );
  return changed();
}
