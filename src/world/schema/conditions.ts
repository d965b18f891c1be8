import { z } from "zod";

/**
 * The condition table of spec 2.2, written once as data. The zod schemas, the
 * operator/value rules and the engine's evaluators all read this table, so a
 * condition type is described in exactly one place.
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
export const OBJECTIVE_STATUSES = ["hidden", "active", "completed"] as const;

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
export const CONDITION_TYPE_NAMES = Object.keys(CONDITION_TYPES) as ConditionType[];

export function isConditionType(type: unknown): type is ConditionType {
  return typeof type === "string" && Object.hasOwn(CONDITION_TYPES, type);
}

/** The zod schema of one `value` kind. Shared with effects. */
export function valueSchema(kind: ValueKind): z.ZodType {
  switch (kind) {
    case "number":
      return z.number();
    case "string":
      return z.string();
    case "boolean":
      return z.boolean();
    case "scalar":
      return z.union([z.string(), z.number(), z.boolean()]);
    case "questStatus":
      return z.enum(QUEST_STATUSES);
    case "eventStatus":
      return z.enum(EVENT_STATUSES);
    case "none":
      return z.never();
  }
}

// Written out so that the inferred `Condition` type is a precise discriminated union.
export const GameTickCondition = z.object({
  type: z.literal("game-tick"),
  operator: z.enum(NUMERIC_OPERATORS),
  value: z.number(),
});
export const PlayerLevelCondition = z.object({
  type: z.literal("player-level"),
  operator: z.enum(NUMERIC_OPERATORS),
  value: z.number(),
});
export const PlayerResourceCondition = z.object({
  type: z.literal("player-resource"),
  resource: z.string(),
  operator: z.enum(NUMERIC_OPERATORS),
  value: z.number(),
});
export const PlayerTraitsCondition = z.object({
  type: z.literal("player-traits"),
  operator: z.enum(MEMBERSHIP_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]),
});
export const PositionCondition = z.object({
  type: z.enum(["party-realm", "party-region", "party-location", "party-area"]),
  operator: z.enum(TEXT_OPERATORS),
  value: z.string(),
});
export const KnownEntityCondition = z.object({
  type: z.literal("known-entity"),
  entity: z.string(),
  operator: z.enum(EQUALITY_OPERATORS),
  value: z.boolean(),
});
export const QuestsCompletedCondition = z.object({
  type: z.literal("quests-completed"),
  operator: z.enum(MEMBERSHIP_OPERATORS),
  value: z.string(),
});
export const QuestStatusCondition = z.object({
  type: z.literal("quest-status"),
  questId: z.string(),
  operator: z.enum(EQUALITY_OPERATORS),
  value: z.enum(QUEST_STATUSES),
});
export const EventStatusCondition = z.object({
  type: z.literal("narrative-event-status"),
  eventId: z.string(),
  operator: z.enum(EQUALITY_OPERATORS),
  value: z.enum(EVENT_STATUSES),
});
export const TextCondition = z.object({
  type: z.enum(["story-text", "action-text"]),
  operator: z.enum(TEXT_OPERATORS),
  value: z.string(),
});
export const JudgedCondition = z.object({
  type: z.enum(["story", "action"]),
  query: z.string(),
  embeddingId: z.string().optional(),
});
export const ReadStringCondition = z.object({
  type: z.literal("read-string"),
  key: z.string(),
  operator: z.enum(TEXT_OPERATORS),
  value: z.string(),
});
export const ReadNumberCondition = z.object({
  type: z.literal("read-number"),
  key: z.string(),
  operator: z.enum(NUMERIC_OPERATORS),
  value: z.number(),
});
export const ReadBooleanCondition = z.object({
  type: z.literal("read-boolean"),
  key: z.string(),
  operator: z.enum(EQUALITY_OPERATORS),
  value: z.boolean(),
});
export const ReadArrayCondition = z.object({
  type: z.literal("read-array"),
  key: z.string(),
  operator: z.enum(MEMBERSHIP_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]),
});

export const Condition = z.discriminatedUnion("type", [
  GameTickCondition,
  PlayerLevelCondition,
  PlayerResourceCondition,
  PlayerTraitsCondition,
  PositionCondition,
  KnownEntityCondition,
  QuestsCompletedCondition,
  QuestStatusCondition,
  EventStatusCondition,
  TextCondition,
  JudgedCondition,
  ReadStringCondition,
  ReadNumberCondition,
  ReadBooleanCondition,
  ReadArrayCondition,
]);
export type Condition = z.infer<typeof Condition>;

/** The schema of each condition type, for checking one condition against its own type. */
export const CONDITION_SCHEMAS: Record<ConditionType, z.ZodObject> = {
  "game-tick": GameTickCondition,
  "player-level": PlayerLevelCondition,
  "player-resource": PlayerResourceCondition,
  "player-traits": PlayerTraitsCondition,
  "party-realm": PositionCondition,
  "party-region": PositionCondition,
  "party-location": PositionCondition,
  "party-area": PositionCondition,
  "known-entity": KnownEntityCondition,
  "quests-completed": QuestsCompletedCondition,
  "quest-status": QuestStatusCondition,
  "narrative-event-status": EventStatusCondition,
  "story-text": TextCondition,
  "action-text": TextCondition,
  story: JudgedCondition,
  action: JudgedCondition,
  "read-string": ReadStringCondition,
  "read-number": ReadNumberCondition,
  "read-boolean": ReadBooleanCondition,
  "read-array": ReadArrayCondition,
};

export function isAiJudged(condition: { type: string }): boolean {
  return condition.type === "story" || condition.type === "action";
}
