import { byCharacter, type ConditionSpec, NUMERIC } from "./spec.ts";

/** `player-level` (spec 2.2). */
export default {
  fields: [],
  operators: NUMERIC,
  value: "number",
  read: (_condition, snapshot) => byCharacter(snapshot, (c) => c.level),
} satisfies ConditionSpec;
