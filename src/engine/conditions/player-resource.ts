import { byCharacter, type ConditionSpec, NUMERIC, normaliseKey } from "./spec.ts";

/** `player-resource` (spec 2.2): per character, the resource named case-insensitively. */
export default {
  fields: ["resource"],
  operators: NUMERIC,
  value: "number",
  read: (condition, snapshot) => {
    const wanted = normaliseKey(condition.resource as string);
    return byCharacter(snapshot, (c) => resourceValue(c.resources, wanted));
  },
} satisfies ConditionSpec;

function resourceValue(resources: Record<string, number>, wanted: string): number | undefined {
  for (const key of Object.keys(resources)) {
    if (normaliseKey(key) === wanted) return resources[key];
  }
  return undefined;
}
