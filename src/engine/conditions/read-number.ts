import { type ConditionSpec, NUMERIC, stored } from "./spec.ts";

/** `read-number` (spec 2.2). */
export default {
  fields: ["key"],
  operators: NUMERIC,
  value: "number",
  read: (condition, _snapshot, storage) =>
    stored(storage, condition.key as string, (v) => typeof v === "number" && Number.isFinite(v), 0),
} satisfies ConditionSpec;
