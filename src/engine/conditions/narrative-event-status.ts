import { defineCondition, ownString } from "./spec.ts";

/** `narrative-event-status` (spec 2.2). */
export default defineCondition("narrative-event-status", {
  read: (condition, snapshot) => ownString(snapshot.eventStatus, condition.eventId as string) ?? "inactive",
});
