import { z } from "zod";

/** The effect table of spec 2.2: one schema per effect type. */

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const NEXT_STEP_SOURCES = ["objective", "narrative-event"] as const;
export const RESOURCE_OPERATORS = ["add", "subtract", "multiply", "divide", "set"] as const;
export const EFFECT_TARGETS = ["allPlayers", "satisfyingPlayers"] as const;

export const StoryEffect = z.object({ type: z.literal("story"), instruction: z.string() });
export const QuestInitEffect = z.object({
  type: z.literal("quest-init"),
  operator: z.literal("set"),
  value: z.string(),
});
export const QuestEffect = z.object({
  type: z.enum(["quest-progress", "quest-complete", "quest-next-step-clear"]),
  questId: z.string(),
});
export const ObjectiveEffect = z.object({
  type: z.enum(["quest-objective-reveal", "quest-objective-complete"]),
  questId: z.string(),
  objectiveId: z.string(),
});
export const QuestNextStepSetEffect = z.object({
  type: z.literal("quest-next-step-set"),
  questId: z.string(),
  text: z.string(),
  source: z.enum(NEXT_STEP_SOURCES),
});
export const PartyNextStepSetEffect = z.object({
  type: z.literal("party-next-step-set"),
  text: z.string(),
  source: z.enum(NEXT_STEP_SOURCES),
});
export const PartyNextStepClearEffect = z.object({ type: z.literal("party-next-step-clear") });
export const EventStartEffect = z.object({ type: z.literal("narrative-event-start"), eventId: z.string() });
export const PartyMoveEffect = z.object({
  type: z.enum(["party-realm", "party-region", "party-location", "party-area"]),
  operator: z.literal("set"),
  value: z.string(),
});
export const PlayerResourceEffect = z.object({
  type: z.literal("player-resource"),
  resource: z.string(),
  target: z.enum(EFFECT_TARGETS).optional(),
  operator: z.enum(RESOURCE_OPERATORS),
  value: z.number(),
});
export const PlayerTraitsEffect = z.object({
  type: z.literal("player-traits"),
  target: z.enum(EFFECT_TARGETS).optional(),
  operator: z.enum(["set", "add", "remove"]),
  value: z.union([scalar, z.array(scalar)]),
});
export const KnownEntitySetEffect = z.object({
  type: z.literal("known-entity"),
  entity: z.string(),
  operator: z.literal("set"),
  value: z.boolean(),
});
export const KnownEntityToggleEffect = z.object({
  type: z.literal("known-entity"),
  entity: z.string(),
  operator: z.literal("toggle"),
  value: z.boolean().optional(),
});
export const WriteStringEffect = z.object({
  type: z.literal("write-string"),
  key: z.string(),
  operator: z.literal("set"),
  value: z.string(),
});
export const WriteNumberEffect = z.object({
  type: z.literal("write-number"),
  key: z.string(),
  operator: z.enum(RESOURCE_OPERATORS),
  value: z.number(),
});
export const WriteBooleanEffect = z.object({
  type: z.literal("write-boolean"),
  key: z.string(),
  operator: z.enum(["set", "toggle"]),
  value: z.boolean().optional(),
});
export const WriteArraySetEffect = z.object({
  type: z.literal("write-array"),
  key: z.string(),
  operator: z.literal("set"),
  value: z.array(scalar),
});
export const WriteArrayElementEffect = z.object({
  type: z.literal("write-array"),
  key: z.string(),
  operator: z.enum(["add", "remove"]),
  value: scalar,
});

export const EFFECT_SCHEMAS = {
  story: [StoryEffect],
  "quest-init": [QuestInitEffect],
  "quest-progress": [QuestEffect],
  "quest-complete": [QuestEffect],
  "quest-objective-reveal": [ObjectiveEffect],
  "quest-objective-complete": [ObjectiveEffect],
  "quest-next-step-set": [QuestNextStepSetEffect],
  "quest-next-step-clear": [QuestEffect],
  "party-next-step-set": [PartyNextStepSetEffect],
  "party-next-step-clear": [PartyNextStepClearEffect],
  "narrative-event-start": [EventStartEffect],
  "party-realm": [PartyMoveEffect],
  "party-region": [PartyMoveEffect],
  "party-location": [PartyMoveEffect],
  "party-area": [PartyMoveEffect],
  "player-resource": [PlayerResourceEffect],
  "player-traits": [PlayerTraitsEffect],
  "known-entity": [KnownEntitySetEffect, KnownEntityToggleEffect],
  "write-string": [WriteStringEffect],
  "write-number": [WriteNumberEffect],
  "write-boolean": [WriteBooleanEffect],
  "write-array": [WriteArraySetEffect, WriteArrayElementEffect],
} as const satisfies Record<string, readonly z.ZodObject[]>;

export type EffectType = keyof typeof EFFECT_SCHEMAS;
export const EFFECT_TYPE_NAMES = Object.keys(EFFECT_SCHEMAS) as EffectType[];

export function isEffectType(type: unknown): type is EffectType {
  return typeof type === "string" && Object.hasOwn(EFFECT_SCHEMAS, type);
}

export const Effect = z.union([
  StoryEffect,
  QuestInitEffect,
  QuestEffect,
  ObjectiveEffect,
  QuestNextStepSetEffect,
  PartyNextStepSetEffect,
  PartyNextStepClearEffect,
  EventStartEffect,
  PartyMoveEffect,
  PlayerResourceEffect,
  PlayerTraitsEffect,
  KnownEntitySetEffect,
  KnownEntityToggleEffect,
  WriteStringEffect,
  WriteNumberEffect,
  WriteBooleanEffect,
  WriteArraySetEffect,
  WriteArrayElementEffect,
]);
export type Effect = z.infer<typeof Effect>;

/**
 * Checks one effect against the schemas of its own type. Used by the validator
 * and by the engine, which silently drops effects that fail (spec 2.2).
 */
export function parseEffect(
  value: unknown,
): { ok: true; effect: Effect } | { ok: false; issues: z.core.$ZodIssue[] } {
  const type = (value as { type?: unknown } | null)?.type;
  if (!isEffectType(type)) {
    return {
      ok: false,
      issues: [
        {
          code: "custom",
          message: `unknown effect type ${JSON.stringify(type)}`,
          path: ["type"],
          input: type,
        },
      ],
    };
  }
  let issues: z.core.$ZodIssue[] = [];
  for (const schema of EFFECT_SCHEMAS[type]) {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, effect: value as Effect };
    // Report the variant that got furthest: the one whose operator matched, if any.
    if (issues.length === 0 || !result.error.issues.some((i) => i.path[0] === "operator")) {
      issues = result.error.issues;
    }
  }
  return { ok: false, issues };
}
