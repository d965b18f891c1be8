import { defineCondition, ownString } from "./spec.ts";

/** `quest-status` (spec 2.2). */
export default defineCondition("quest-status", {
  read: (condition, snapshot) => ownString(snapshot.questStatus, condition.questId as string) ?? "hidden",
});
