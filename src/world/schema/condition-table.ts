/**
 * The condition table of spec 2.2, written once as data: each type's extra
 * fields, its operators and the kind of its value. The zod schemas and the
 * check rules read it through ./conditions.ts; the engine's condition modules
 * (src/engine/conditions/<type>.ts) take their fields, operators and value
 * kind from it. This file imports nothing: the engine's conditions are
 * bundled into the script isolate together with it (no zod there).
 */

export const NUMERIC_OPERATORS = [
  "equals",
  "notEquals",
  "greaterThan",
  "lessThan",
  "greaterThanOrEqual",
  "lessThanOrEqual",
] as const;
export const TEXT_OPERATORS = ["equals", "notEquals", "contains", "notContains", "regex"] as const;
export const EQUALITY_OPERATORS = ["equals", "notEquals"] as const;
export const MEMBERSHIP_OPERATORS = ["contains", "notContains"] as const;

export const QUEST_STATUSES = [
  "hidden",
  "available",
  "accepted",
  "completed",
  "abandoned",
  "rejected",
  "expired",
] as const;
export const EVENT_STATUSES = ["inactive", "active", "completed", "stopped"] as const;

/** What a condition's `value` must be. */
export type ValueKind = "number" | "string" | "boolean" | "scalar" | "questStatus" | "eventStatus" | "none";

export interface ConditionSpec {
  /** Extra required string fields (beyond type/operator/value). */
  fields: readonly string[];
  /** Extra optional string fields. */
  optionalFields?: readonly string[];
  operators: readonly string[];
  value: ValueKind;
  /** Judged by the AI rather than evaluated mechanically. */
  aiJudged?: boolean;
}

const position: ConditionSpec = { fields: [], operators: TEXT_OPERATORS, value: "string" };
const text: ConditionSpec = { fields: [], operators: TEXT_OPERATORS, value: "string" };
const judged: ConditionSpec = {
  fields: ["query"],
  optionalFields: ["embeddingId"],
  operators: [],
  value: "none",
  aiJudged: true,
};

export const CONDITION_TYPES = {
  "game-tick": { fields: [], operators: NUMERIC_OPERATORS, value: "number" },
  "player-level": { fields: [], operators: NUMERIC_OPERATORS, value: "number" },
  "player-resource": { fields: ["resource"], operators: NUMERIC_OPERATORS, value: "number" },
  "player-traits": { fields: [], operators: MEMBERSHIP_OPERATORS, value: "scalar" },
  "party-realm": position,
  "party-region": position,
  "party-location": position,
  "party-area": position,
  "known-entity": { fields: ["entity"], operators: EQUALITY_OPERATORS, value: "boolean" },
  "quests-completed": { fields: [], operators: MEMBERSHIP_OPERATORS, value: "string" },
  "quest-status": { fields: ["questId"], operators: EQUALITY_OPERATORS, value: "questStatus" },
  "narrative-event-status": { fields: ["eventId"], operators: EQUALITY_OPERATORS, value: "eventStatus" },
  "story-text": text,
  "action-text": text,
  story: judged,
  action: judged,
  "read-string": { fields: ["key"], operators: TEXT_OPERATORS, value: "string" },
  "read-number": { fields: ["key"], operators: NUMERIC_OPERATORS, value: "number" },
  "read-boolean": { fields: ["key"], operators: EQUALITY_OPERATORS, value: "boolean" },
  "read-array": { fields: ["key"], operators: MEMBERSHIP_OPERATORS, value: "scalar" },
} as const satisfies Record<string, ConditionSpec>;

export type ConditionType = keyof typeof CONDITION_TYPES;

/** The condition types in table order, for messages and suggestions. */
export const CONDITION_TYPE_NAMES = Object.keys(CONDITION_TYPES) as ConditionType[];

export function isConditionType(type: unknown): type is ConditionType {
  return typeof type === "string" && Object.hasOwn(CONDITION_TYPES, type);
}
