import type { Trigger } from "../world/schema/index.ts";
import { own, setOwn } from "./own.ts";
import type { Phase } from "./ports.ts";
import type { SessionState, TriggerEdits } from "./state.ts";
import { objectiveQuestOf, type WorldIndex } from "./world-index.ts";

/**
 * The live trigger map: the world's map plus the engine-made objective
 * triggers, with the scripts' edits (overrides and deletions kept in the
 * state) laid over it. Order is map order: base keys first (an override
 * keeps its key's place), then keys scripts added, in the order added.
 */
export interface LiveTrigger {
  key: string;
  trigger: Trigger;
  phase: Phase;
}

const baseCache = new WeakMap<WorldIndex, LiveTrigger[]>();

export function liveTriggers(index: WorldIndex, edits: TriggerEdits): LiveTrigger[] {
  const untouched =
    edits.deleted.length === 0 && edits.added.length === 0 && Object.keys(edits.overrides).length === 0;
  if (untouched) {
    let cached = baseCache.get(index);
    if (!cached) {
      cached = Object.entries(index.baseTriggers).map(([key, trigger]) => live(key, trigger));
      baseCache.set(index, cached);
    }
    return cached;
  }
  const deleted = new Set(edits.deleted);
  const out: LiveTrigger[] = [];
  for (const [key, trigger] of Object.entries(index.baseTriggers)) {
    if (deleted.has(key)) continue;
    const override = edits.overrides[key];
    out.push(live(key, override ? (override as unknown as Trigger) : trigger));
  }
  for (const key of edits.added) {
    if (deleted.has(key) || !Object.hasOwn(edits.overrides, key)) continue;
    out.push(live(key, edits.overrides[key] as unknown as Trigger));
  }
  return out;
}

function live(key: string, trigger: Trigger): LiveTrigger {
  return { key, trigger, phase: phaseOf(trigger) };
}

/**
 * Spec 3 "Phases": a trigger with an `action` or `action-text` condition runs
 * in planning, every other one in the state phase. Fixed by the typed
 * conditions alone.
 */
export function phaseOf(trigger: Trigger): Phase {
  const conditions = Array.isArray(trigger.conditions) ? trigger.conditions : [];
  for (const c of conditions) if (c?.type === "action" || c?.type === "action-text") return "planning";
  return "state";
}

/**
 * Why an armed trigger is out of the pool: triggers named `{questId}_objective`
 * or `{questId}_objective_N` stay out unless that quest is accepted (spec 2.2
 * "Naming", resolutions "Quests"). Null when it is in.
 */
export function exclusion(state: SessionState, index: WorldIndex, key: string): string | null {
  const quest = objectiveQuestOf(index.world, key);
  if (quest === undefined) return null;
  return exclusionFor(state, quest);
}

/** exclusion() for an objective trigger of `quest` (objectiveQuestOf), when the caller knows the quest. */
export function exclusionFor(state: SessionState, quest: string): string | null {
  const status = own(state.quests, quest)?.status ?? "hidden";
  return status === "accepted" ? null : `quest "${quest}" is ${status}, not accepted`;
}

const maps = new WeakMap<readonly LiveTrigger[], Record<string, Trigger>>();

/** The map as scripts see it (spec 4 `triggers`): key -> trigger, plain JSON. Built once per live list; read-only. */
export function triggerMapOf(list: readonly LiveTrigger[]): Record<string, Trigger> {
  let map = maps.get(list);
  if (!map) {
    map = {};
    for (const { key, trigger } of list) setOwn(map, key, trigger);
    maps.set(list, map);
  }
  return map;
}
