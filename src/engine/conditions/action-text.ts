import { type ConditionSpec, TEXT } from "./spec.ts";

/** `action-text` (spec 2.2). */
export default {
  fields: [],
  operators: TEXT,
  value: "string",
  read: (_condition, snapshot) => [...snapshot.actions],
} satisfies ConditionSpec;
