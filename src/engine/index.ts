/** The engine's public API, re-exported by the package entry (src/index.ts). */

export { MAX_ALTERED, SOMEONE, withAlteredNarration } from "./alteration.ts";
export type { PlayerSpec } from "./characters.ts";
export { type ConditionResult, evaluateCondition, scriptCheck } from "./conditions/evaluate.ts";
// What the author tools and the front ends need beyond the sessions: cli,
// server, author and host import the engine only through this file and the
// ports (test/host/boundaries.test.ts).
export { normaliseKey } from "./conditions/spec.ts";
export { damageMultipliers, IMMUNE, RESISTANT, VULNERABLE } from "./damage.ts";
export { type DiffEntry, diffStates } from "./diff.ts";
export { DEFAULT_MAX_JUDGED } from "./env.ts";
export { ENGINE_ERRORS, EngineError, type EngineErrorCode, isEngineError } from "./errors.ts";
export { moveBy, wrap } from "./geography.ts";
export { isKnown } from "./known.ts";
export { SUMMARY_BATCH, SUMMARY_MAX_BATCH, SUMMARY_MAX_CHARS } from "./narration.ts";
export { nextStepOf, restatesStep } from "./next-step.ts";
export { chooseStoryStart, DEFAULT_PLAYER, type RestoreOptions, type SessionOptions } from "./options.ts";
export { legacyOutcomeText, outcomeLine, refusalReason } from "./outcome.ts";
export { setOwn } from "./own.ts";
export type * from "./ports.ts";
export { INTENTS } from "./ports.ts";
export type { QuestPrompt } from "./quests.ts";
export { QUEST_EXPIRY_TURNS } from "./quests.ts";
export type { TurnResult } from "./result.ts";
export {
  MIN_READABLE_VERSION,
  type ReadSave,
  readSave,
  SAVE_FORMAT,
  SAVE_VERSION,
  type SaveFile,
  worldHash,
  writeSave,
} from "./save.ts";
export { RECENT_STORY, RECENT_STORY_MAX } from "./scene.ts";
export { ENGINE_VERSION, SEMANTIC_VERSION } from "./scripts.ts";
export { createSession, type QuestAnswerResult, restoreSession, Session } from "./session.ts";
export type * from "./state.ts";
export { completeTrace } from "./stored-trace.ts";
export type * from "./trace.ts";
export { liveTriggers, phaseOf } from "./trigger-pool.ts";
export type { TurnHooks, TurnInput, TurnPins } from "./turn.ts";
export { knownIn } from "./views.ts";
export { indexWorld, objectiveQuestOf, type WorldIndex } from "./world-index.ts";
