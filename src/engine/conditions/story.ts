import type { ConditionSpec } from "./spec.ts";

/** `story` (spec 2.2): judged by the AI; a script's check() reads the story text. */
export default {
  fields: ["query"],
  operators: [],
  value: "none",
  read: (_condition, snapshot) => snapshot.storyText,
} satisfies ConditionSpec;
