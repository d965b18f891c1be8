import { type ConditionSpec, EQUALITY, stored } from "./spec.ts";

/** `read-boolean` (spec 2.2). */
export default {
  fields: ["key"],
  operators: EQUALITY,
  value: "boolean",
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "boolean", false),
} satisfies ConditionSpec;
