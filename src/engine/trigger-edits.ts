import type { Trigger } from "../world/schema/index.ts";
import { validateTriggerMap } from "../world/trigger-map.ts";
import { setOwn } from "./own.ts";
import type { JsonObject } from "./ports.ts";
import type { TriggerEdits } from "./state.ts";
import type { WorldIndex } from "./world-index.ts";

/**
 * Script edits of the trigger map (spec 4 `triggers`, resolutions
 * "Triggers"): a phase's edits are buffered, checked at the end of the phase
 * with the publish-time rules (validateTriggerMap), discarded together if any
 * check fails, and otherwise stored as overrides/deletions relative to the
 * base map. They take effect next turn.
 */

export function noEdits(): TriggerEdits {
  return { overrides: {}, deleted: [], added: [] };
}

/**
 * The publish-time errors of an edited map, as one line each naming the
 * trigger and the rule; empty when it may be kept. Every rule `check` applies
 * to a trigger runs (TRIGGER_MAP_RULES), but only on what the scripts
 * changed: a trigger of the world file that is unchanged keeps whatever
 * `check` said of it, and must not make every edit of the game fail. Errors
 * of the whole map (the trigger budgets) always count. The engine-made
 * objective triggers are left out while unchanged: they are not the
 * author's, and must not push an at-cap world over the budgets.
 */
export function editProblems(index: WorldIndex, map: JsonObject): string[] {
  const authored: JsonObject = {};
  for (const [key, value] of Object.entries(map)) {
    const made = Object.hasOwn(index.madeTriggers, key) ? index.madeTriggers[key] : undefined;
    if (made && JSON.stringify(made) === JSON.stringify(value)) continue;
    setOwn(authored, key, value);
  }
  const changed = new Set(changedKeys(index.baseTriggers, map));
  return validateTriggerMap(index.world, authored)
    .filter((d) => d.severity === "error")
    .filter((d) => d.path.length < 2 || changed.has(String(d.path[1])))
    .map((d) => {
      const where = d.path.slice(2).map(String).join(".");
      const trigger = d.path.length < 2 ? "the trigger map" : `trigger ${JSON.stringify(String(d.path[1]))}`;
      return `${trigger} breaks rule ${d.code}${where ? ` at ${where}` : ""}: ${d.message}`;
    });
}

/**
 * A script that changes a `story`/`action` query clears that condition's
 * `embeddingId` (the embedding belonged to the old query). Returns a copy.
 */
export function clearStaleEmbeddings(map: JsonObject, before: Record<string, Trigger>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(map)) {
    const previous = Object.hasOwn(before, key) ? before[key] : undefined;
    setOwn(out, key, value);
    if (!isObject(value) || !Array.isArray(value.conditions)) continue;
    let copied = false;
    const conditions = value.conditions.map((condition, i) => {
      if (!isObject(condition) || (condition.type !== "story" && condition.type !== "action"))
        return condition;
      if (condition.embeddingId === undefined) return condition;
      const old = previous?.conditions?.[i] as { type?: string; query?: string } | undefined;
      if (old && old.type === condition.type && old.query === condition.query) return condition;
      copied = true;
      const { embeddingId: _stale, ...rest } = condition;
      return rest;
    });
    if (copied) setOwn(out, key, { ...value, conditions });
  }
  return out;
}

/** The edits that turn the base map into `map`. */
export function editsFrom(index: WorldIndex, map: JsonObject): TriggerEdits {
  const edits = noEdits();
  const base = index.baseTriggers;
  for (const [key, trigger] of Object.entries(base)) {
    if (!Object.hasOwn(map, key)) edits.deleted.push(key);
    else if (map[key] !== (trigger as unknown) && JSON.stringify(map[key]) !== JSON.stringify(trigger)) {
      setOwn(edits.overrides, key, map[key] as JsonObject);
    }
  }
  for (const key of Object.keys(map)) {
    if (Object.hasOwn(base, key)) continue;
    edits.added.push(key);
    setOwn(edits.overrides, key, map[key] as JsonObject);
  }
  return edits;
}

/** Keys whose trigger differs between two maps (changed, added or deleted), for the trace. */
export function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key) || JSON.stringify(after[key]) !== JSON.stringify(before[key]))
      keys.push(key);
  }
  for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) keys.push(key);
  return keys;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
