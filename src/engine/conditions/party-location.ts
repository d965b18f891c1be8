import { defineCondition } from "./spec.ts";

/** `party-location` (spec 2.2). */
export default defineCondition("party-location", {
  read: (_condition, snapshot) => snapshot.position.location,
});
