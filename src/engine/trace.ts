import type { IntentAnswer, Phase } from "./ports.ts";
import type { QuestStatus } from "./state.ts";

/**
 * What a turn did, as typed data (XState's `transition()` returning the
 * actions with the snapshot): every trigger considered in each phase with its
 * conditions, AI verdict, script outcome and effects, plus the turn's other
 * steps. Plain JSON, so a trace can be printed, stored and compared.
 */
export interface TurnTrace {
  tick: number;
  /**
   * AI calls made by the turn: one classification and one narration (none
   * when pinned), one judge call per phase with unpinned candidates. `total`
   * counts those model calls; `embed` (ranking candidates by embeddings, only
   * when a phase has more than it may send) is counted apart.
   */
  aiCalls: {
    classify: number;
    narrate: number;
    judge: number;
    embed: number;
    /** The running summary's own call, on fold turns (absent when none was made). */
    summary?: number;
    total: number;
  };
  intent: { source: "classifier" | "pin" | "none"; answer: IntentAnswer | null; note?: string };
  movement: MovementTrace | null;
  phases: PhaseTrace[];
  /**
   * The triggers consumed before the turn (key -> tick each fired): spent
   * non-recurring triggers are not evaluated, so `phases` does not list them.
   * The state's `consumed` map as the turn found it, shared, not copied (a
   * turn writes only to its draft). Absent from traces stored before it was
   * added.
   */
  spent?: Readonly<Record<string, number>>;
  event: EventTrace | null;
  quests: QuestChange[];
  recharge: { character: string; resource: string; before: number; after: number }[];
  tip: string | null;
}

export interface MovementTrace {
  intent: string;
  target: string;
  moved: boolean;
  reason?: string;
  to?: { realm: string; region: string; location: string; area: string };
}

export interface PhaseTrace {
  phase: Phase;
  triggers: TriggerTrace[];
  /** Objective triggers kept out of the pool because their quest is not accepted. */
  excluded: { trigger: string; reason: string }[];
  judge: {
    called: boolean;
    candidates: string[];
    sent: string[];
    left: string[];
    /** Candidates answered by a pin instead of the judge. */
    pinned: string[];
    /** How candidates were ranked: embeddings when the provider has them and ranking mattered. */
    ranking: "lexical" | "embedding";
    /** The judge call failed after the story was shown: its questions counted as not passed (issue 19). */
    failed?: string;
  };
  scripts: { begun: boolean; budgetExhausted: boolean };
  edits: { status: "none" | "kept" | "discarded"; changed: string[]; problems: string[] };
  storageRejected: boolean;
}

export type Verdict = "passed" | "failed" | "not among the top N" | "no verdict";

export interface TriggerTrace {
  trigger: string;
  conditions: ConditionTrace[];
  /** Whether every mechanical condition passed (the AI batch sees only such triggers). */
  mechanicalPassed: boolean;
  candidate: boolean;
  rank?: number;
  relevance?: number;
  verdict?: Verdict;
  fired: boolean;
  /** `scope: "player"` with passing conditions but no target player: not fired, not consumed. */
  suppressed?: boolean;
  targets: string[];
  script?: ScriptTrace;
  effects: EffectTrace[];
  consumed: boolean;
}

export interface ConditionTrace {
  index: number;
  type: string;
  /**
   * What a mechanical condition reads, as the world names it: its storage
   * key, resource, quest, event or entity (`met_mara`, `health`). Absent when
   * the type reads no named thing (`game-tick`, `party-area`), for AI-judged
   * conditions, and in traces stored before it was added.
   */
  subject?: string;
  operator?: string;
  actual: unknown;
  expected: unknown;
  /** null when the condition was not decided (an AI condition of a trigger that was not sent). */
  passed: boolean | null;
  judged?: boolean;
  /** The verdict came from a pin (play-test, dry run), not from the judge. */
  pinned?: boolean;
  /** Players the AI credited (AI-judged conditions) or whose own action matched (action-text). */
  players?: string[];
  error?: string;
}

export type ScriptStatus = "ran" | "skipped" | "error" | "timeout" | "memory" | "budget" | "stalled";

export interface ScriptTrace {
  status: ScriptStatus;
  /** The script ran and set `skip = true`. */
  setSkip?: boolean;
  reason?: string;
  line?: number | null;
  column?: number | null;
  elapsedMs?: number;
  storageRejected?: boolean;
  editedTriggers?: boolean;
}

export type DropReason = "malformed" | "over the cap" | "skip" | "suppressed";

export interface EffectTrace {
  index: number;
  source: "typed" | "script" | "event";
  type: string;
  /** applied: changed the state; unchanged: valid but nothing to do (see note); dropped: not applied (see reason). */
  status: "applied" | "unchanged" | "dropped";
  reason?: DropReason;
  note?: string;
  effect: unknown;
}

export interface EventTrace {
  event: string;
  verdict: "completed" | "stopped" | "neither" | "missing";
  activeTurns: number;
  result: "completed" | "forced" | "stopped" | "active";
  effects: EffectTrace[];
}

export interface QuestChange {
  quest: string;
  from: QuestStatus;
  to: QuestStatus;
  reason: string;
}
