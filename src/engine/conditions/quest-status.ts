import { type ConditionSpec, EQUALITY, ownString } from "./spec.ts";

/** `quest-status` (spec 2.2). */
export default {
  fields: ["questId"],
  operators: EQUALITY,
  value: "questStatus",
  read: (condition, snapshot) => ownString(snapshot.questStatus, condition.questId as string) ?? "hidden",
} satisfies ConditionSpec;
