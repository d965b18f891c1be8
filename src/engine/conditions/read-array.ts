import { defineCondition, stored } from "./spec.ts";

/** `read-array` (spec 2.2). */
export default defineCondition("read-array", {
  // A copy, so that a trace holding it does not change when storage does.
  read: (condition, _snapshot, storage) => [
    ...(stored(storage, condition.key as string, Array.isArray, []) as unknown[]),
  ],
});
