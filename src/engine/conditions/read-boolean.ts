import { defineCondition, stored } from "./spec.ts";

/** `read-boolean` (spec 2.2). */
export default defineCondition("read-boolean", {
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "boolean", false),
});
