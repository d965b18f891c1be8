import { type ConditionSpec, NUMERIC } from "./spec.ts";

/** `game-tick` (spec 2.2). */
export default {
  fields: [],
  operators: NUMERIC,
  value: "number",
  read: (_condition, snapshot) => snapshot.tick,
} satisfies ConditionSpec;
