import { z } from "zod";
import { INTENTS } from "../../engine/ports.ts";
import { EVENT_STATUSES, OBJECTIVE_STATUSES, QUEST_STATUSES } from "../../world/schema/conditions.ts";

/**
 * The play-test file format (docs/playtests.md), a public contract: a world,
 * players, and turns with expectations. Objects here strip nothing silently:
 * unknown keys are reported by `findUnknownKeys` (shape.ts) with a "did you
 * mean", and the rules that tie keys together (one action kind per step,
 * `target` needs `intent`...) are checked by `checkRules` (rules.ts).
 */

const Name = z.string().regex(/\S/, "must not be empty");

const QuestStatus = z.enum(QUEST_STATUSES);

export const PlayerSetup = z.object({
  /** A made-up player's name (or use `premade`). */
  name: Name.optional(),
  /** A premade character of the world, by name. */
  premade: Name.optional(),
  traits: z.array(Name).optional(),
  attributes: z.record(z.string(), z.number()).optional(),
});

/** A resource expectation: the current value, or {current?, max?}. */
const ResourceExpect = z.union([
  z.number(),
  z.object({ current: z.number().optional(), max: z.number().optional() }),
]);

export const PlayerExpect = z.object({
  level: z.number().optional(),
  xp: z.number().optional(),
  resources: z.record(z.string(), ResourceExpect).optional(),
  attributes: z.record(z.string(), z.number()).optional(),
  /** The exact set of traits (order does not matter). */
  traits: z.array(Name).optional(),
  /** Traits the character must hold (others may be there too). */
  hasTraits: z.array(Name).optional(),
  /** Traits the character must not hold. */
  lacksTraits: z.array(Name).optional(),
  /** Item -> quantity held; 0 means not held. Items not listed are not checked. */
  items: z.record(z.string(), z.number().int().min(0)).optional(),
});

const QuestExpect = z.union([
  QuestStatus,
  z.object({
    status: QuestStatus.optional(),
    objectives: z.record(z.string(), z.enum(OBJECTIVE_STATUSES)).optional(),
  }),
]);

export const Expect = z.object({
  fired: z.array(Name).optional(),
  notFired: z.array(Name).optional(),
  /** Exactly these triggers fired (any order): each of them, and no other. */
  firedOnly: z.array(Name).optional(),
  quests: z.record(z.string(), QuestExpect).optional(),
  events: z.record(z.string(), z.enum(EVENT_STATUSES)).optional(),
  /** Deep-equal per listed key; null means "absent (or null)". */
  storage: z.record(z.string(), z.unknown()).optional(),
  party: z
    .object({
      realm: Name.optional(),
      region: Name.optional(),
      location: Name.optional(),
      area: Name.optional(),
    })
    .optional(),
  known: z.record(z.string(), z.boolean()).optional(),
  players: z.record(z.string(), PlayerExpect).optional(),
  log: z
    .object({
      contains: z.array(Name).optional(),
      notContains: z.array(Name).optional(),
    })
    .optional(),
  /** The quests whose acceptance prompt the step raised, as a set. */
  prompts: z.array(Name).optional(),
});

export const Act = z.object({ player: Name, act: z.string() });

export const Step = z.object({
  act: z.string().optional(),
  player: Name.optional(),
  acts: z.array(Act).min(1, "must list at least one {player, act}").optional(),
  accept: Name.optional(),
  reject: Name.optional(),
  abandon: Name.optional(),
  intent: z.enum(INTENTS).optional(),
  target: Name.optional(),
  story: z.string().optional(),
  judge: z.record(z.string(), z.boolean()).optional(),
  /** The verdict on the active narrative event (as recorded): no AI is asked about it. */
  event: z.enum(["completed", "stopped", "neither"]).optional(),
  expect: Expect.optional(),
});

/** State set after the opening and before the first turn, for situations play cannot reach quickly (or at all). */
export const Given = z.object({
  storage: z.record(z.string(), z.unknown()).optional(),
  players: z
    .record(
      z.string(),
      z.object({
        resources: z.record(z.string(), z.number()).optional(),
      }),
    )
    .optional(),
});

/** What a file and each of its tests may set (a test's own value wins). */
const settings = {
  storyStart: Name.optional(),
  seed: z.number().optional(),
  gameMode: Name.optional(),
  players: z.array(PlayerSetup).min(1, "must list at least one player (or leave `players` out)").optional(),
  given: Given.optional(),
};

export const Test = z.object({
  name: Name.optional(),
  ...settings,
  turns: z.array(Step).min(1, "must hold at least one step"),
});

export const PlaytestFile = z.object({
  world: Name,
  name: Name.optional(),
  ...settings,
  turns: z.array(Step).min(1, "must hold at least one step").optional(),
  tests: z.array(Test).min(1, "must hold at least one test").optional(),
});

export type PlayerSetup = z.infer<typeof PlayerSetup>;
export type PlayerExpect = z.infer<typeof PlayerExpect>;
export type Expect = z.infer<typeof Expect>;
export type Step = z.infer<typeof Step>;
export type Given = z.infer<typeof Given>;
export type Test = z.infer<typeof Test>;
export type PlaytestFile = z.infer<typeof PlaytestFile>;

/** The action keys of a step: at most one per step (none: a step that only checks). */
export const STEP_KINDS = ["act", "acts", "accept", "reject", "abandon"] as const;

export const DEFAULT_SEED = 1;
