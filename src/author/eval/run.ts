import { performance } from "node:perf_hooks";
import type { Usage } from "../../ai/provider.ts";
import type { AiJudge, JudgeRequest, JudgeVerdict } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { conditionName, type JudgedCondition, judgedConditions } from "./conditions.ts";
import type { SourcedCase } from "./sources.ts";

/** What eval needs of a provider: its judge and its running usage. */
export interface EvalJudge extends AiJudge {
  readonly name: string;
  readonly model: string;
  usage(): Usage;
}

export interface CaseResult {
  source: string;
  story?: string;
  action?: string;
  expect: boolean;
  /** One verdict per sample; null where the call failed or gave no verdict. */
  verdicts: (boolean | null)[];
  /** The first error, when a sample failed. */
  error?: string;
}

export interface ConditionReport {
  trigger: string;
  index: number;
  type: "story" | "action";
  query: string;
  cases: number;
  /** Verdicts given (cases × samples, less the failed ones). */
  verdicts: number;
  correct: number;
  /** correct / verdicts; null when no verdict was given. */
  accuracy: number | null;
  /** Verdicts that passed a case labelled fail. */
  falsePasses: number;
  /** Verdicts that failed a case labelled pass. */
  falseFails: number;
  /** Cases whose verdict changed between samples. */
  flaky: number;
  /** Samples that failed or gave no verdict. */
  errors: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  ms: number;
  results: CaseResult[];
}

export interface EvalReport {
  provider: string;
  model: string;
  samples: number;
  conditions: ConditionReport[];
  /** Cases that name no AI-judged condition of the world (a renamed trigger, a wrong index). */
  unmatched: { source: string; trigger: string; condition?: number; reason: string }[];
  summary: Omit<ConditionReport, "trigger" | "index" | "type" | "query" | "results"> & {
    conditionsWithoutCases: number;
  };
}

export interface EvalOptions {
  /** Verdicts asked per case (default 3): a case whose verdicts differ is flaky. */
  samples?: number;
  /** Called after each case, for a progress bar. */
  onCase?: (done: number, total: number) => void;
}

export const DEFAULT_SAMPLES = 3;
export const MAX_SAMPLES = 20;

/**
 * Runs every case through the judge, `samples` times each, one question per
 * call (as the engine would ask it about that story or action), and counts
 * per condition. Never throws on a failed call: it is an error of that
 * sample, and the run goes on.
 */
export async function runEval(
  world: World,
  cases: readonly SourcedCase[],
  judge: EvalJudge,
  options: EvalOptions = {},
): Promise<EvalReport> {
  const samples = Math.max(1, Math.min(MAX_SAMPLES, Math.floor(options.samples ?? DEFAULT_SAMPLES)));
  const conditions = judgedConditions(world);
  const reports = new Map<string, ConditionReport>();
  for (const c of conditions) reports.set(conditionName(c), emptyReport(c));
  const unmatched: EvalReport["unmatched"] = [];
  const planned: { c: JudgedCondition; kase: SourcedCase }[] = [];
  for (const kase of cases) {
    const own = conditions.filter((c) => c.trigger === kase.trigger);
    const c = kase.condition !== undefined ? own.find((o) => o.index === kase.condition) : own[0];
    if (!c) {
      unmatched.push({
        source: kase.source,
        trigger: kase.trigger,
        ...(kase.condition !== undefined ? { condition: kase.condition } : {}),
        reason:
          own.length === 0
            ? `no trigger "${kase.trigger}" with an AI-judged condition`
            : `condition ${kase.condition} of "${kase.trigger}" is not AI-judged (its AI-judged ones: ${own.map((o) => o.index).join(", ")})`,
      });
      continue;
    }
    planned.push({ c, kase });
  }
  let done = 0;
  for (const { c, kase } of planned) {
    const report = reports.get(conditionName(c))!;
    const expect = kase.expect === true || kase.expect === "pass";
    const result: CaseResult = {
      source: kase.source,
      ...(kase.story !== undefined ? { story: kase.story } : {}),
      ...(kase.action !== undefined ? { action: kase.action } : {}),
      expect,
      verdicts: [],
    };
    for (let sample = 0; sample < samples; sample++) {
      const before = judge.usage();
      const started = performance.now();
      let verdict: boolean | null = null;
      try {
        const answer: JudgeVerdict[] = await judge.judge(requestOf(c, kase, sample, done));
        const found = answer.find((v) => v.trigger === c.trigger && v.conditionIndex === c.index);
        verdict = found ? found.passed === true : null;
        if (!found) result.error ??= "the judge gave no verdict for the question";
      } catch (error) {
        result.error ??= error instanceof Error ? error.message : String(error);
      }
      report.ms += performance.now() - started;
      const after = judge.usage();
      report.calls += after.calls - before.calls;
      report.promptTokens += after.promptTokens - before.promptTokens;
      report.completionTokens += after.completionTokens - before.completionTokens;
      result.verdicts.push(verdict);
    }
    count(report, result);
    report.results.push(result);
    options.onCase?.(++done, planned.length);
  }
  const list = [...reports.values()];
  return {
    provider: judge.name,
    model: judge.model,
    samples,
    conditions: list,
    unmatched,
    summary: summarise(list),
  };
}

function requestOf(c: JudgedCondition, kase: SourcedCase, sample: number, n: number): JudgeRequest {
  const player = "Player";
  return {
    phase: c.phase,
    tick: 1,
    // Another seed per sample: a server samples anew, and a provider's memo of answers is not hit.
    seed: ((n + 1) * 7919 + sample * 104729) % 0x7fffffff,
    questions: [{ trigger: c.trigger, conditionIndex: c.index, kind: c.type, query: c.query }],
    storyText: kase.story ?? "",
    actions: kase.action !== undefined ? [{ player, text: kase.action }] : [],
    players: [player],
  };
}

function emptyReport(c: JudgedCondition): ConditionReport {
  return {
    trigger: c.trigger,
    index: c.index,
    type: c.type,
    query: c.query,
    cases: 0,
    verdicts: 0,
    correct: 0,
    accuracy: null,
    falsePasses: 0,
    falseFails: 0,
    flaky: 0,
    errors: 0,
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    ms: 0,
    results: [],
  };
}

function count(report: ConditionReport, result: CaseResult): void {
  report.cases++;
  const given = result.verdicts.filter((v): v is boolean => v !== null);
  report.errors += result.verdicts.length - given.length;
  report.verdicts += given.length;
  for (const v of given) {
    if (v === result.expect) report.correct++;
    else if (v) report.falsePasses++;
    else report.falseFails++;
  }
  if (new Set(given).size > 1) report.flaky++;
  report.accuracy = report.verdicts > 0 ? report.correct / report.verdicts : null;
}

function summarise(list: readonly ConditionReport[]): EvalReport["summary"] {
  const sum = (key: keyof ConditionReport) => list.reduce((n, r) => n + (r[key] as number), 0);
  const verdicts = sum("verdicts");
  const correct = sum("correct");
  return {
    cases: sum("cases"),
    verdicts,
    correct,
    accuracy: verdicts > 0 ? correct / verdicts : null,
    falsePasses: sum("falsePasses"),
    falseFails: sum("falseFails"),
    flaky: sum("flaky"),
    errors: sum("errors"),
    calls: sum("calls"),
    promptTokens: sum("promptTokens"),
    completionTokens: sum("completionTokens"),
    ms: sum("ms"),
    conditionsWithoutCases: list.filter((r) => r.cases === 0).length,
  };
}
