import { type ConditionSpec, TEXT } from "./spec.ts";

/** `story-text` (spec 2.2). */
export default {
  fields: [],
  operators: TEXT,
  value: "string",
  read: (_condition, snapshot) => snapshot.storyText,
} satisfies ConditionSpec;
