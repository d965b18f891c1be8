import { type ConditionSpec, MEMBERSHIP } from "./spec.ts";

/** `quests-completed` (spec 2.2). */
export default {
  fields: [],
  operators: MEMBERSHIP,
  value: "string",
  read: (_condition, snapshot) => [...snapshot.questsCompleted],
} satisfies ConditionSpec;
