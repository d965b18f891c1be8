import { setOwn } from "../own.ts";
import { questEntry } from "../quests.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";
import { objective } from "./shared/objective.ts";

/** `quest-objective-complete`: see quest-objective-reveal.ts. */
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
  ctx.recorder.outcomes.push({
    type: "objective",
    actor: null,
    quest: effect.questId,
    text: found.text,
    change: "completed",
  });
  return changed(
    next === undefined ? "no active objective left; next step cleared" : `next step: objective "${next}"`,
  );
}
