import { type ConditionSpec, MEMBERSHIP, stored } from "./spec.ts";

/** `read-array` (spec 2.2). */
export default {
  fields: ["key"],
  operators: MEMBERSHIP,
  value: "scalar",
  // A copy, so that a trace holding it does not change when storage does.
  read: (condition, _snapshot, storage) => [
    ...(stored(storage, condition.key as string, Array.isArray, []) as unknown[]),
  ],
} satisfies ConditionSpec;
