import { defineCondition } from "./spec.ts";

/** `action` (spec 2.2): judged by the AI; a script's check() reads the actions. */
export default defineCondition("action", {
  read: (_condition, snapshot) => [...snapshot.actions],
});
