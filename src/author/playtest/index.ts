/**
 * Play-tests (`taleforge test`): scripted turns of a world with expectations
 * on the state, run with the offline provider and the real sandbox. The
 * format is documented in docs/playtests.md.
 */
export {
  CoverageCollector,
  type EffectCoverage,
  type QuestCoverage,
  type TriggerCoverage,
  type WorldCoverage,
} from "./coverage.ts";
export { CHECKERS, checkExpect, type Mismatch, type Observed } from "./expect.ts";
export { type ExportedPlaytest, type ExportOptions, exportPlaytest } from "./export.ts";
export { findPlaytests, PLAYTEST_FILE } from "./files.ts";
export { type LoadedPlaytest, parsePlaytest, readPlaytest } from "./load.ts";
export { checkNames, checkTriggerNames } from "./names.ts";
export { MAX_ALIAS_COUNT, MAX_FILE_BYTES } from "./parse.ts";
export { playerNames } from "./plan.ts";
export { PROBLEM_CODES, type Problem, type ProblemCode, type TestFailure } from "./problem.ts";
export {
  ExportError,
  type GameRecord,
  type RecordedStep,
  recordFromCassette,
  recordFromSave,
  recordFromText,
} from "./record.ts";
export { formatCoverage } from "./report/coverage.ts";
export { formatJunit } from "./report/junit.ts";
export { formatResults } from "./report/text.ts";
export {
  type AiFactory,
  countResults,
  type FileResult,
  type RunOptions,
  type RunResult,
  runPlaytests,
  type TestResult,
} from "./run.ts";
export { DEFAULT_SEED, PlaytestFile } from "./schema.ts";
export { readWorldEntry, type WorldEntry, worldEntryOf } from "./worlds.ts";
