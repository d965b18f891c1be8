import type { ConditionSpec } from "./spec.ts";

/** `action` (spec 2.2): judged by the AI; a script's check() reads the actions. */
export default {
  fields: ["query"],
  operators: [],
  value: "none",
  read: (_condition, snapshot) => [...snapshot.actions],
} satisfies ConditionSpec;
