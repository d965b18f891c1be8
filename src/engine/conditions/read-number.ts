import { defineCondition, stored } from "./spec.ts";

/** `read-number` (spec 2.2). */
export default defineCondition("read-number", {
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "number" && Number.isFinite(v), 0),
});
