import { byCharacter, type ConditionSpec, MEMBERSHIP } from "./spec.ts";

/** `player-traits` (spec 2.2). */
export default {
  fields: [],
  operators: MEMBERSHIP,
  value: "scalar",
  read: (_condition, snapshot) => byCharacter(snapshot, (c) => [...c.traits]),
} satisfies ConditionSpec;
