/**
 * The interfaces the engine owns and the outside plugs into: the script
 * sandbox (src/sandbox) and the AI (src/ai). The engine never imports those
 * modules; a session is created with implementations of these ports, and
 * tests use plain in-test implementations that answer from data.
 *
 * Every value crossing a port is plain JSON, so a session can be recorded and
 * replayed exactly.
 */

import type { Outcome } from "./outcome.ts";

export type { MoveRefusal, Outcome, OutcomeType } from "./outcome.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Phase = "planning" | "state";

/** The 17 intents of spec 3. */
export const INTENTS = [
  "attack",
  "mockAttack",
  "subdue",
  "preventAttack",
  "evade",
  "defend",
  "heal",
  "buff",
  "interactNPC",
  "readDocument",
  "teleport",
  "fastTravel",
  "travel",
  "move",
  "sleep",
  "acceptQuest",
  "other",
] as const;
export type Intent = (typeof INTENTS)[number];

// ---------------------------------------------------------------------------
// What `check()` and the mechanical conditions read (spec 2.2 and 4)
// ---------------------------------------------------------------------------

/**
 * The state a phase's conditions are evaluated against, taken at the start of
 * the phase. Scripts get the same view (plus storage) for `check()`, which
 * runs inside the isolate on this snapshot, never calling back to the host.
 */
export interface CheckSnapshot {
  tick: number;
  position: { realm: string; region: string; location: string; area: string };
  /** Party members (player characters and party NPCs), in party order. */
  characters: { name: string; level: number; resources: Record<string, number>; traits: string[] }[];
  /** Entity name -> known. Entities not listed are unknown. */
  known: Record<string, boolean>;
  questsCompleted: string[];
  questStatus: Record<string, string>;
  eventStatus: Record<string, string>;
  /** The most recent story output, raw. */
  storyText: string;
  /** The pending player action inputs of this turn. */
  actions: string[];
}

// ---------------------------------------------------------------------------
// Scripts (spec 2.2 `script`, 4, 7, 8)
// ---------------------------------------------------------------------------

export interface ScriptRunner {
  /** Starts one phase: one isolate and one 500 ms budget, shared by the phase's scripts. */
  beginPhase(phase: ScriptPhaseInfo): Promise<ScriptPhase>;
  /** Releases the runner (child processes). */
  close(): Promise<void>;
}

export interface ScriptPhaseInfo {
  phase: Phase;
  tick: number;
  /** The session seed: `Math.random` and `Date` inside scripts derive from it and the tick. */
  seed: number;
  /** Session identity, so that one host can serve several sessions without sharing state. */
  sessionId: string;
  /** Compact JSON size of the whole trigger map: memory headroom grows with it. */
  triggerSetBytes: number;
}

export interface ScriptPhase {
  /**
   * Runs one trigger's script. Later calls see what earlier ones changed (the engine passes it in).
   * `hint.last` says no other script of the phase follows: a runner may then close the phase as
   * this call ends (the sandbox saves a round trip). `end()` is called all the same, and a call
   * after a `last` one must still run.
   */
  run(call: ScriptCall, hint?: ScriptHint): Promise<ScriptOutcome>;
  /** Ends the phase and frees its isolate. */
  end(): Promise<void>;
}

export interface ScriptHint {
  last: boolean;
}

export interface ScriptCall {
  trigger: string;
  script: string;
  snapshot: CheckSnapshot;
  storage: JsonObject;
  /** The trigger's typed effects, pre-filled. */
  effects: Json[];
  /** The full trigger map as the script should see it (earlier edits of this phase included). */
  triggers: JsonObject;
  engineVersion: number;
  semanticVersion: string;
}

/**
 * Why a script did not finish. All but `stalled` are the script's own (its text, its CPU time, its
 * memory) and come out the same on every machine; `stalled` is the machine's: it gave the phase's
 * scripts so little of a core that they did not finish within the phase's wall-clock ceiling.
 */
export type ScriptFailure = "syntax" | "runtime" | "timeout" | "memory" | "budget" | "stalled";

export type ScriptOutcome =
  | {
      status: "ok";
      /** Storage after the script, already JSON round-tripped (spec 4). */
      storage: JsonObject;
      /** True when the script stored a BigInt or a circular value: the phase's storage writes are rejected. */
      storageRejected: boolean;
      /** Why storage was rejected, when the runner says (a BigInt or cycle, a value too deep, storage too large). */
      storageProblem?: string;
      effects: Json[];
      skip: boolean;
      /** The edited trigger map, or null when the script left it alone. */
      triggers: JsonObject | null;
      logs: ScriptLog[];
      elapsedMs: number;
    }
  | {
      status: "error";
      failure: ScriptFailure;
      message: string;
      /** Position of the error inside the script, 1-based, when known. */
      line: number | null;
      column: number | null;
      logs: ScriptLog[];
      elapsedMs: number;
    };

export interface ScriptLog {
  level: "log" | "info" | "warn" | "error";
  message: string;
}

// ---------------------------------------------------------------------------
// AI (spec 1, 3; resolutions)
// ---------------------------------------------------------------------------

/**
 * What a provider needs to make a call reproducible and cache-friendly
 * (issue 19 item 6, 7): a sampling seed derived from the session seed, the
 * tick and the call, and the game's identity (a prompt-cache key). Optional,
 * so that in-test requests may leave them out.
 */
export interface CallIdentity {
  /** A 31-bit seed for this call (engine `callSeed`). */
  seed?: number;
  /** The session id: one per game, stable across turns. */
  game?: string;
}

export interface IntentRequest extends CallIdentity {
  tick: number;
  player: string;
  text: string;
  /** Places the classifier may name as a target: locations, areas of the current location, regions. */
  places: { name: string; kind: "realm" | "region" | "location" | "area" }[];
  position: CheckSnapshot["position"];
  npcsPresent: string[];
  recentStory: string;
  /**
   * Every action of the turn, in the players' order, when more than one
   * player acted (`player`/`text` are the first of them). The party's intent
   * is read from all of them in the same one call (docs/play.md, "A party").
   */
  actions?: { player: string; text: string }[];
}

export interface IntentAnswer {
  intent: Intent;
  /** For travel, move, fastTravel, teleport: the destination as named by the player. */
  target?: string;
  confidence?: number;
  /** The player whose action decided the party's intent, when several acted (the others follow). */
  leader?: string;
}

/**
 * One AI-judged condition of a candidate trigger, or (kind "event") one of the
 * two questions about the active narrative event that the state phase asks
 * when the narrator gave no verdict (issue 19 item 4): `trigger` is then
 * `narrativeEvents/<key>`, condition 0 asks "completed", 1 asks "stopped".
 */
export interface JudgeQuestion {
  trigger: string;
  conditionIndex: number;
  kind: "story" | "action" | "event";
  query: string;
  /**
   * A `story` question of a recurring trigger that fired before: judged only on the story after
   * this tick (the tick it last fired), so a condition once true does not stay true (issue 39).
   */
  since?: number;
}

export interface JudgeRequest extends CallIdentity {
  phase: Phase;
  tick: number;
  questions: JudgeQuestion[];
  /** Recent story text (for `story`) and the pending actions by player (for `action`). */
  storyText: string;
  actions: { player: string; text: string }[];
  players: string[];
  /**
   * The running summary and the story entries since it (newest last): `story`
   * conditions are judged against the session history (spec 2.2), not only the
   * latest narration. Left out by in-test requests.
   */
  history?: { summary: string; entries: StoryLine[] };
  /** Where the party is and who is present: the judge reads the scene too. */
  scene?: JudgeScene;
}

export interface JudgeScene {
  position: CheckSnapshot["position"];
  npcsPresent: string[];
}

export interface JudgeVerdict {
  trigger: string;
  conditionIndex: number;
  passed: boolean;
  /** For `scope: "player"` triggers: the players the text supports. */
  players?: string[];
}

export interface AiJudge {
  judge(request: JudgeRequest, signal?: AbortSignal): Promise<JudgeVerdict[]>;
}

/**
 * Optional: vectors for texts, so that AI-judged candidates are ranked by
 * embedding similarity instead of lexical overlap (resolutions "Triggers").
 * The engine asks only when a phase has more candidates than it may send.
 */
export interface Embedder {
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface NarrationRequest extends CallIdentity {
  tick: number;
  /**
   * Present (1 or more) when the turn is retried (issue 33): the player asked for another draw of
   * the same turn. The seed differs with it; an offline narrator picks another wording by it.
   */
  draw?: number;
  opening: boolean;
  actions: { player: string; text: string }[];
  intent: IntentAnswer | null;
  /** One-time narrator instructions from `story` effects of earlier turns. */
  instructions: string[];
  /**
   * The active narrative event, if any: its beats go to the narrator, and the
   * same call answers whether the event completed or stopped (so a turn stays
   * at two AI calls).
   */
  event: { key: string; title: string; beats: string; activeTurns: number } | null;
  /** A compact view of the scene and the party for the prompt builder. */
  scene: SceneView;
  /** What happened mechanically this turn before narration (movement, quest changes). */
  outcomes: Outcome[];
  /**
   * Present (true) when a trigger fired on this turn's actions (the planning phase): the world
   * answered them, though what its `story` effects say comes with the next narration (deferred).
   * A narrator should not tell those actions as coming to nothing. Absent otherwise.
   */
  actionsAnswered?: true;
  /** The running summary of the story older than `scene.recentStory` ("" before the first one). */
  summary: string;
  /**
   * Story entries that left the recent window and are not in the summary yet,
   * oldest first, or null. When present, the answer's `summary` should be the
   * running summary with these folded in: summarising rides on the narration
   * call, so a turn stays at two AI calls.
   */
  summarise: StoryLine[] | null;
  /** The journal: quests that are available or accepted, with their next step. */
  journal: { quest: string; status: string; nextStep: string | null }[];
  partyNextStep: string | null;
  /**
   * What a model's context needs beyond the scene (issue 39): the story start, the party's
   * character sheets and the turns since the summary with the actions that led to them. Left
   * out by in-test requests and by tapes recorded before it existed.
   */
  context?: NarrationContext;
}

export interface NarrationContext {
  /** The game's story start (a `storyStarts` key): its text is the author's opening and sets the game's voice. */
  storyStart: string;
  /** Each party member's sheet beyond `scene.party`: resource maxima, items and abilities. */
  sheets: CharacterSheet[];
  /** The turns since the summary, oldest first (the same ticks as `scene.recentStory`), each with the actions by player. */
  turns: { tick: number; actions: { player: string; text: string }[]; story: string }[];
  /**
   * Indices of `instructions` that came from recurring triggers (issue 39): standing guidance,
   * sent whenever their trigger fires, not one-time news. Absent when there are none.
   */
  standing?: number[];
}

export interface CharacterSheet {
  name: string;
  kind: "player" | "npc";
  /** Resource key -> maximum. */
  max: Record<string, number>;
  /** Item name -> quantity. */
  items: Record<string, number>;
  abilities: string[];
}

export interface StoryLine {
  tick: number;
  text: string;
}

export interface SceneView {
  position: CheckSnapshot["position"];
  locationInfo: string;
  areaDescription: string;
  /**
   * NPCs present, with their public info. `known: false` when the party has
   * not met them (the narrator describes them, never names them);
   * `properName` when the world gives a fuller name than the key.
   */
  npcsPresent: { name: string; info: string; known?: false; properName?: string }[];
  party: { name: string; level: number; resources: Record<string, number>; traits: string[] }[];
  recentStory: string[];
  openingText?: string;
}

export type EventVerdict = "completed" | "stopped" | "neither";

export interface NarrationAnswer {
  text: string;
  /** Present when the request carried an active event. Completed wins a tie (resolutions). */
  eventVerdict?: EventVerdict;
  /** The new running summary, when the request asked for one (`summarise`). */
  summary?: string;
  /**
   * Set when the story is not what the model would have written in full: a
   * limit was hit (length, streaming time, max_tokens) or the stream broke
   * after text was shown. The text is kept (the player read it); the engine
   * logs this as a notice.
   */
  notice?: string;
  /**
   * In a party game, the text's paragraphs in order, each with the character it tells of (null when
   * it tells of no one: the place, the people there, the journal), so a page can mark the lines about
   * its viewer's own character (issue 34). Optional: a narrator that cannot say leaves it out.
   */
  segments?: StorySegment[];
}

export interface StorySegment {
  actor: string | null;
  text: string;
}

/** A running summary asked for in its own call, after the story was shown (issue 19 item 4). */
export interface SummaryRequest extends CallIdentity {
  tick: number;
  /** The running summary so far ("" before the first one). */
  summary: string;
  /** The entries to fold in, oldest first. */
  entries: StoryLine[];
}

export interface Summariser {
  summarise(request: SummaryRequest, signal?: AbortSignal): Promise<{ summary: string }>;
}

export interface Narrator {
  /** Writes the story of a turn; `onChunk` receives streamed text as it arrives. */
  narrate(
    request: NarrationRequest,
    onChunk?: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<NarrationAnswer>;
}

export interface IntentClassifier {
  classify(request: IntentRequest, signal?: AbortSignal): Promise<IntentAnswer>;
}

/** Everything a turn asks of the AI. Providers in src/ai implement all of it; `embed` is optional. */
export interface AiPorts
  extends IntentClassifier,
    Narrator,
    AiJudge,
    Partial<Embedder>,
    Partial<Summariser> {}
