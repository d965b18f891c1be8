import { type ConditionSpec, stored, TEXT } from "./spec.ts";

/** `read-string` (spec 2.2). */
export default {
  fields: ["key"],
  operators: TEXT,
  value: "string",
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "string", ""),
} satisfies ConditionSpec;
