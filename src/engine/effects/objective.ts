import { setOwn } from "../own.ts";
import { isQuest, questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/**
 * Quest objectives (resolutions "Quests"): reveal makes a hidden objective
 * active and the quest's next step its text; complete marks it completed and
 * moves the next step to the next active objective (map order), or clears it.
 */
export function applyObjectiveReveal(
  effect: EffectOf<"quest-objective-reveal">,
  ctx: EffectContext,
): EffectOutcome {
  const found = objective(ctx, effect.questId, effect.objectiveId);
  if (typeof found === "string") return unchanged(found);
  const entry = questEntry(ctx, effect.questId);
  const status = entry.objectives[effect.objectiveId];
  if (status !== "hidden") return unchanged(`objective "${effect.objectiveId}" is already ${status}`);
  setOwn(entry.objectives, effect.objectiveId, "active");
  entry.activeObjectiveId = effect.objectiveId;
  entry.nextStep = { text: found.text, source: "objective" };
  ctx.recorder.outcomes.push(`New objective for "${effect.questId}": ${found.text}`);
  return changed();
}

export function applyObjectiveComplete(
  effect: EffectOf<"quest-objective-complete">,
  ctx: EffectContext,
): EffectOutcome {
  const found = objective(ctx, effect.questId, effect.objectiveId);
  if (typeof found === "string") return unchanged(found);
  const entry = questEntry(ctx, effect.questId);
  if (entry.objectives[effect.objectiveId] === "completed") return unchanged("already completed");
  setOwn(entry.objectives, effect.objectiveId, "completed");
  const next = Object.keys(entry.objectives).find((id) => entry.objectives[id] === "active");
  const objectives = ctx.index.world.quests[effect.questId]!.objectives!;
  entry.activeObjectiveId = next ?? null;
  entry.nextStep = next === undefined ? null : { text: objectives[next]!.text, source: "objective" };
  ctx.recorder.outcomes.push(`Objective completed for "${effect.questId}": ${found.text}`);
  return changed(
    next === undefined ? "no active objective left; next step cleared" : `next step: objective "${next}"`,
  );
}

function objective(ctx: EffectContext, quest: string, id: string) {
  if (!isQuest(ctx, quest)) return `no quest "${quest}"`;
  const objectives = ctx.index.world.quests[quest]!.objectives ?? {};
  if (!Object.hasOwn(objectives, id)) return `quest "${quest}" has no objective "${id}"`;
  return objectives[id]!;
}
