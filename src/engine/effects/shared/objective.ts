import { isQuest } from "../../quests.ts";
import type { EffectContext } from "../context.ts";

/** The objective an effect names, or why there is none (the quest or the objective is unknown). */
export function objective(ctx: EffectContext, quest: string, id: string) {
  if (!isQuest(ctx, quest)) return `no quest "${quest}"`;
  const objectives = ctx.index.world.quests[quest]!.objectives ?? {};
  if (!Object.hasOwn(objectives, id)) return `quest "${quest}" has no objective "${id}"`;
  return objectives[id]!;
}
