import { setOwn } from "../own.ts";
import { questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";
import { objective } from "./shared/objective.ts";

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
  ctx.recorder.outcomes.push({
    type: "objective",
    actor: null,
    quest: effect.questId,
    text: found.text,
    change: "revealed",
  });
  return changed();
}
