/**
 * `taleforge eval`: how well a world's AI-judged conditions judge on a given
 * model, measured on labelled cases (docs/eval.md).
 */
export { conditionName, type JudgedCondition, judgedConditions } from "./conditions.ts";
export { formatEval } from "./report.ts";
export {
  type CaseResult,
  type ConditionReport,
  DEFAULT_SAMPLES,
  type EvalJudge,
  type EvalOptions,
  type EvalReport,
  MAX_SAMPLES,
  runEval,
} from "./run.ts";
export { casesFromPlaytests, playtestsNear, type SourcedCase, starterCases, starterFile } from "./sources.ts";
