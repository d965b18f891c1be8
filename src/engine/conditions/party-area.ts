import { type ConditionSpec, TEXT } from "./spec.ts";

/** `party-area` (spec 2.2). */
export default {
  fields: [],
  operators: TEXT,
  value: "string",
  read: (_condition, snapshot) => snapshot.position.area,
} satisfies ConditionSpec;
