import { defineCondition } from "./spec.ts";

/** `party-realm` (spec 2.2). */
export default defineCondition("party-realm", {
  read: (_condition, snapshot) => snapshot.position.realm,
});
