import { defineCondition } from "./spec.ts";

/** `known-entity` (spec 2.2). */
export default defineCondition("known-entity", {
  read: (condition, snapshot) =>
    Object.hasOwn(snapshot.known, condition.entity as string) &&
    snapshot.known[condition.entity as string] === true,
});
