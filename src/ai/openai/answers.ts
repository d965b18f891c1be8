import type { IntentAnswer, IntentRequest, JudgeRequest, JudgeVerdict } from "../../engine/ports.ts";
import type { IntentAnswerJson, JudgeAnswerJson } from "../answers.ts";

/**
 * The engine's IntentAnswer from the model's: a null or blank target is left
 * out; the leader is kept only when it names one of the players who acted
 * (ignoring case), spelt as the request spells it.
 */
export function toIntentAnswer(answer: IntentAnswerJson, request?: IntentRequest): IntentAnswer {
  const target = answer.target?.trim();
  const acted = request?.actions ?? [];
  const wanted = typeof answer.leader === "string" ? answer.leader.trim().toLowerCase() : "";
  const leader = wanted === "" ? undefined : acted.find((a) => a.player.toLowerCase() === wanted)?.player;
  return {
    intent: answer.intent,
    ...(target ? { target } : {}),
    confidence: answer.confidence,
    ...(leader !== undefined && acted.length > 1 ? { leader } : {}),
  };
}

/**
 * The engine's verdicts from the model's numbered answers: question n is
 * `request.questions[n - 1]`. Numbers out of range and repeats (the first
 * answer wins) are dropped; a question left unanswered gets no verdict.
 * Player names are matched to the request's players ignoring case (unknown
 * names are dropped); an empty list (the question is not about particular
 * players) is left out, which credits every player.
 */
export function toJudgeVerdicts(answer: JudgeAnswerJson, request: JudgeRequest): JudgeVerdict[] {
  const seen = new Set<number>();
  const verdicts: JudgeVerdict[] = [];
  for (const item of answer.verdicts) {
    const question = request.questions[item.question - 1];
    if (!question || seen.has(item.question)) continue;
    seen.add(item.question);
    const players = canonicalPlayers(item.players, request.players);
    verdicts.push({
      trigger: question.trigger,
      conditionIndex: question.conditionIndex,
      passed: item.passed,
      ...(item.players.length > 0 ? { players } : {}),
    });
  }
  return verdicts;
}

function canonicalPlayers(named: string[], players: string[]): string[] {
  const out: string[] = [];
  for (const name of named) {
    const wanted = name.trim().toLowerCase();
    const match = players.find((p) => p.toLowerCase() === wanted);
    if (match !== undefined && !out.includes(match)) out.push(match);
  }
  return out;
}
