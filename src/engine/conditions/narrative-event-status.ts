import { type ConditionSpec, EQUALITY, ownString } from "./spec.ts";

/** `narrative-event-status` (spec 2.2). */
export default {
  fields: ["eventId"],
  operators: EQUALITY,
  value: "eventStatus",
  read: (condition, snapshot) => ownString(snapshot.eventStatus, condition.eventId as string) ?? "inactive",
} satisfies ConditionSpec;
