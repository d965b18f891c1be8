import type { EventVerdict, Json, JsonObject, Phase } from "./ports.ts";
import type { QuestStatus } from "./quest-status.ts";

/**
 * The whole state of a session: plain JSON, small, and never a copy of the
 * world. Everything a save holds is here; everything else is derived from the
 * world on demand (see world-index.ts).
 */
export interface SessionState {
  tick: number;
  /** The session seed; scripts derive their `Math.random` from it and the tick. */
  seed: number;
  /** The PRNG state (sfc32, four 32-bit words); every random pick advances it. */
  rng: number[];
  sessionId: string;
  storyStart: string;
  party: Character[];
  position: Position;
  /** Entities whose known flag differs from the world default or was set by play. */
  known: Record<string, boolean>;
  /** Quests that left `hidden` or were touched by an effect, by quest key. */
  quests: Record<string, QuestState>;
  /** Narrative events that were ever started, by event key. */
  events: Record<string, EventState>;
  partyNextStep: NextStep | null;
  storage: JsonObject;
  /** Non-recurring triggers that fired, by map key, with the tick they fired at. */
  consumed: Record<string, number>;
  /**
   * Recurring triggers that fired, by map key, with the last tick they fired at (issue 39): a
   * recurring `story` condition is judged on the story since then. Absent in saves made before.
   */
  recurringFired?: Record<string, number>;
  /** Script edits of the trigger map relative to the world's map (plus engine-made triggers). */
  triggerEdits: TriggerEdits;
  history: { story: StoryEntry[]; actions: ActionEntry[] };
  /** The running summary of the story up to and including tick `upTo` (-1: nothing summarised yet). */
  summary: { text: string; upTo: number };
  /** One-time narrator instructions from `story` effects, for the next narration. */
  pendingInstructions: string[];
  /**
   * Which of `pendingInstructions` (their indices) came from recurring triggers, whatever made
   * the effect (the world, a script's pushed effects, a trigger a script added): standing
   * guidance, not news (issue 39). Absent when none, and in saves made before.
   */
  pendingStanding?: number[];
  log: LogEntry[];
  /** Regex patterns already reported as not compiling (reported once per session). */
  badPatterns: string[];
  /** Index of the last tip shown, so that the next one differs; -1 before any. */
  lastTip: number;
}

export interface Position {
  realm: string;
  region: string;
  location: string;
  area: string;
  /** Offset from the region centre, in [-regionSize/2, +regionSize/2] (resolutions "Geography"). */
  x: number;
  y: number;
}

export interface ResourceValue {
  current: number;
  max: number;
}

export interface Character {
  name: string;
  kind: "player" | "npc";
  level: number;
  xp: number;
  attributes: Record<string, number>;
  skills: Record<string, number>;
  resources: Record<string, ResourceValue>;
  traits: string[];
  abilities: string[];
  /** Item name -> quantity (> 0). */
  items: Record<string, number>;
  /** Damage type -> multiplier on damage taken, for every defined damage type (see damage.ts). */
  damage: Record<string, number>;
}

export type { QuestStatus };
export type ObjectiveStatus = "hidden" | "active" | "completed";
export type EventStatus = "inactive" | "active" | "completed" | "stopped";

export interface NextStep {
  text: string;
  source: "objective" | "narrative-event";
}

export interface QuestState {
  status: QuestStatus;
  /** Every status change, in order, with its tick. */
  transitions: { status: QuestStatus; tick: number }[];
  objectives: Record<string, ObjectiveStatus>;
  activeObjectiveId: string | null;
  nextStep: NextStep | null;
  mainObjectiveDone: boolean;
  /** Where and when the quest became available, for expiry (resolutions "Quests"). */
  availableAt: { tick: number; location: string } | null;
}

export interface EventState {
  status: EventStatus;
  activeTurns: number;
}

export interface TriggerEdits {
  /** Trigger key -> the trigger as a script left it (replaced or added). */
  overrides: Record<string, JsonObject>;
  deleted: string[];
  /** Keys added by scripts, in the order they were added (they follow the world's keys). */
  added: string[];
}

export interface StoryEntry {
  tick: number;
  text: string;
}

export interface ActionEntry {
  tick: number;
  player: string;
  text: string;
}

export type LogType = "trigger-script-error" | "script-log" | "notice";

export interface LogEntry {
  tick: number;
  phase: Phase | "opening" | "turn" | "session";
  /** The trigger (or `narrativeEvents/<key>`) the entry concerns; null for the engine itself. */
  trigger: string | null;
  type: LogType;
  message: string;
}

export type { EventVerdict, Json, JsonObject };
