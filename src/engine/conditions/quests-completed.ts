import { defineCondition } from "./spec.ts";

/** `quests-completed` (spec 2.2). */
export default defineCondition("quests-completed", {
  read: (_condition, snapshot) => [...snapshot.questsCompleted],
});
