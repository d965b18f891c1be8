import { type ConditionSpec, TEXT } from "./spec.ts";

/** `party-location` (spec 2.2). */
export default {
  fields: [],
  operators: TEXT,
  value: "string",
  read: (_condition, snapshot) => snapshot.position.location,
} satisfies ConditionSpec;
