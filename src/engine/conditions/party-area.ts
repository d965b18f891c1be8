import { defineCondition } from "./spec.ts";

/** `party-area` (spec 2.2). */
export default defineCondition("party-area", {
  read: (_condition, snapshot) => snapshot.position.area,
});
