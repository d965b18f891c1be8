import { defineCondition, stored } from "./spec.ts";

/** `read-string` (spec 2.2). */
export default defineCondition("read-string", {
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "string", ""),
});
