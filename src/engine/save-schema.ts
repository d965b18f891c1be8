import { z } from "zod";
import { EVENT_STATUSES, OBJECTIVE_STATUSES, QUEST_STATUSES } from "../world/schema/index.ts";
import type { SessionState } from "./state.ts";

/** Any JSON value (saved storage and trigger overrides; cassettes use it too). */
export const json: z.ZodType = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);

/**
 * The shape of a saved SessionState, checked on restore so that a corrupted
 * or hand-edited save is refused with the path of the first problem instead
 * of failing somewhere in a later turn.
 */
const num = z.number().refine(Number.isFinite, "must be a finite number");
const nextStep = z.object({ text: z.string(), source: z.enum(["objective", "narrative-event"]) }).nullable();
const phase = z.enum(["planning", "state", "opening", "turn", "session"]);

const character = z.object({
  name: z.string(),
  kind: z.enum(["player", "npc"]),
  level: num,
  xp: num,
  attributes: z.record(z.string(), num),
  skills: z.record(z.string(), num),
  resources: z.record(z.string(), z.object({ current: num, max: num })),
  traits: z.array(z.string()),
  abilities: z.array(z.string()),
  items: z.record(z.string(), num),
  damage: z.record(z.string(), num),
});

export const StateSchema = z.object({
  tick: z.number().int().nonnegative(),
  seed: num,
  rng: z.array(z.number().int().min(0).max(0xffffffff)).length(4),
  sessionId: z.string(),
  storyStart: z.string(),
  party: z.array(character).min(1),
  position: z.object({
    realm: z.string(),
    region: z.string(),
    location: z.string(),
    area: z.string(),
    x: num,
    y: num,
  }),
  known: z.record(z.string(), z.boolean()),
  quests: z.record(
    z.string(),
    z.object({
      status: z.enum(QUEST_STATUSES),
      transitions: z.array(z.object({ status: z.enum(QUEST_STATUSES), tick: z.number().int() })),
      objectives: z.record(z.string(), z.enum(OBJECTIVE_STATUSES)),
      activeObjectiveId: z.string().nullable(),
      nextStep,
      mainObjectiveDone: z.boolean(),
      availableAt: z.object({ tick: z.number().int(), location: z.string() }).nullable(),
    }),
  ),
  events: z.record(
    z.string(),
    z.object({ status: z.enum(EVENT_STATUSES), activeTurns: z.number().int().nonnegative() }),
  ),
  partyNextStep: nextStep,
  storage: z.record(z.string(), json),
  consumed: z.record(z.string(), z.number().int()),
  recurringFired: z.record(z.string(), z.number().int()).optional(),
  triggerEdits: z.object({
    overrides: z.record(z.string(), z.record(z.string(), json)),
    deleted: z.array(z.string()),
    added: z.array(z.string()),
  }),
  history: z.object({
    story: z.array(z.object({ tick: z.number().int(), text: z.string() })),
    actions: z.array(z.object({ tick: z.number().int(), player: z.string(), text: z.string() })),
  }),
  summary: z.object({ text: z.string(), upTo: z.number().int() }),
  pendingInstructions: z.array(z.string()),
  pendingStanding: z.array(z.number().int().nonnegative()).optional(),
  log: z.array(
    z.object({
      tick: z.number().int(),
      phase,
      trigger: z.string().nullable(),
      type: z.enum(["trigger-script-error", "script-log", "notice"]),
      message: z.string(),
    }),
  ),
  badPatterns: z.array(z.string()),
  lastTip: z.number().int(),
});

// Keeps the schema and the state type in step: this line fails to compile when they drift.
export const stateFits = (value: z.infer<typeof StateSchema>): SessionState => value as SessionState;
