import { type ConditionSpec, EQUALITY } from "./spec.ts";

/** `known-entity` (spec 2.2). */
export default {
  fields: ["entity"],
  operators: EQUALITY,
  value: "boolean",
  read: (condition, snapshot) =>
    Object.hasOwn(snapshot.known, condition.entity as string) &&
    snapshot.known[condition.entity as string] === true,
} satisfies ConditionSpec;
