import { defineCondition, stored } from "./spec.ts";

/** `read-array` (spec 2.2). */
export default defineCondition("read-array", {
  // Not copied: storage values are replaced, never changed in place (write-array stores a new array,
  // engine/draft.ts), so a trace holding the stored array does not change when storage does. Scripts
  // get their own copy (scriptCheck copies what it returns).
  read: (condition, _snapshot, storage) => stored(storage, condition.key as string, Array.isArray, []),
});
