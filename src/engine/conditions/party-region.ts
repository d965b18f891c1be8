import { type ConditionSpec, TEXT } from "./spec.ts";

/** `party-region` (spec 2.2). */
export default {
  fields: [],
  operators: TEXT,
  value: "string",
  read: (_condition, snapshot) => snapshot.position.region,
} satisfies ConditionSpec;
