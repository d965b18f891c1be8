/**
 * The library entry of Taleforge. World format first; the engine, sandbox and
 * AI layers add their public API below.
 */

// AI: providers (offline, OpenAI-compatible, recorded), their configuration and cassettes.
export * from "./ai/index.ts";
// Engine: sessions, turns, saves, and the ports the sandbox and AI providers implement.
export * from "./engine/index.ts";
export type { Parting } from "./host/branch-parting.ts";
// The host's game: its inputs, the story controls (retry, undo, alter, rewind, branches) and its history (issue 33).
export { HOST_ERRORS, HostError, isHostError } from "./host/errors.ts";
export { type FiredChange, Game, GameInput, type GameSetup, type Outcome } from "./host/game.ts";
export type { AiAnswer, BranchInfo, History, HistoryNode, SavedHistory, StepInput } from "./host/history.ts";
export {
  ControlRule,
  castBallot,
  DEFAULT_PARTY_CONTROLS,
  decideControl,
  openVote,
  PartyControls,
  STORY_CONTROLS,
  type StoryControl,
  tallyVote,
  type Vote,
} from "./host/party-controls.ts";
// The trace formatter the command line prints turns with.
export { formatTrace, type TraceFormatOptions } from "./host/trace.ts";
export { diffWorld, renderWorldDiff, type WorldChange, type WorldDiff } from "./host/world-diff.ts";
// The sandbox's types, for a platform that holds one.
export type { HostOptions, SandboxHost } from "./sandbox/index.ts";
export { createSandbox } from "./sandbox/index.ts";
export { CATALOGUE } from "./world/catalogue.ts";
export type { Diagnostic, JsonPath, Related, Severity } from "./world/diagnostic.ts";
export { formatPath } from "./world/diagnostic.ts";
export { LINT_RULES, lintWorld } from "./world/lint/index.ts";
export { type LoadedWorld, loadWorld, parseWorld } from "./world/load.ts";
export type { CodeInfo, Rule, RuleContext } from "./world/rule.ts";
export { RULES } from "./world/rules/index.ts";
export * from "./world/schema/index.ts";
// The validator, its options, and the world a game can run despite rule errors.
export type { ValidateOptions } from "./world/validate.ts";
export { runnableWorld, type ValidationResult, validateWorld } from "./world/validate.ts";
