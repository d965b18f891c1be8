import { byCharacter, defineCondition, normaliseKey } from "./spec.ts";

/** `player-resource` (spec 2.2): per character, the resource named case-insensitively. */
export default defineCondition("player-resource", {
  read: (condition, snapshot) => {
    const wanted = normaliseKey(condition.resource as string);
    return byCharacter(snapshot, (c) => resourceValue(c.resources, wanted));
  },
});

function resourceValue(resources: Record<string, number>, wanted: string): number | undefined {
  for (const key of Object.keys(resources)) {
    if (normaliseKey(key) === wanted) return resources[key];
  }
  return undefined;
}
