import { defineCondition } from "./spec.ts";

/** `action-text` (spec 2.2). */
export default defineCondition("action-text", {
  read: (_condition, snapshot) => [...snapshot.actions],
});
