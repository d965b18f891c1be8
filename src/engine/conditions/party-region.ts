import { defineCondition } from "./spec.ts";

/** `party-region` (spec 2.2). */
export default defineCondition("party-region", {
  read: (_condition, snapshot) => snapshot.position.region,
});
