import { readFileSync } from "node:fs";
import { applyEffects, EFFECT_CAP } from "../../src/engine/effects/apply.ts";
import type { EffectContext } from "../../src/engine/effects/context.ts";
import type { SessionOptions } from "../../src/engine/options.ts";
import type {
  AiPorts,
  IntentAnswer,
  IntentRequest,
  JudgeQuestion,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
  ScriptCall,
  ScriptOutcome,
  ScriptPhaseInfo,
  ScriptRunner,
} from "../../src/engine/ports.ts";
import { newRecorder } from "../../src/engine/record.ts";
import { createSession, type Session } from "../../src/engine/session.ts";
import { indexWorld } from "../../src/engine/world-index.ts";
import { applyPatch } from "../../src/world/patch.ts";
import type { World } from "../../src/world/schema/index.ts";

const BASE_TEXT = readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8");

/** The base fixture world with a patch merged in (objects merge, other values replace, undefined deletes). */
export function worldWith(patch: Record<string, unknown> = {}): World {
  return applyPatch(JSON.parse(BASE_TEXT), patch) as World;
}

/** A base-world patch that replaces the trigger map (no start_sheep). */
export function onlyTriggers(triggers: Record<string, Record<string, unknown>>): Record<string, unknown> {
  // undefined deletes the base world's own trigger in the patch merge.
  const map: Record<string, unknown> = { start_sheep: undefined };
  for (const [name, t] of Object.entries(triggers)) map[name] = { name, conditions: [], effects: [], ...t };
  // Every quest needs a quest-init trigger (a validation error otherwise): drop the base quest unless used.
  const usesQuest = JSON.stringify(triggers).includes("Lost Sheep");
  return usesQuest ? { triggers: map } : { triggers: map, quests: { "Lost Sheep": undefined } };
}

export interface Judged {
  question: JudgeQuestion;
  request: JudgeRequest;
}

export interface AiScript {
  intent?: IntentAnswer | ((request: IntentRequest) => IntentAnswer);
  story?: string | ((request: NarrationRequest) => string | NarrationAnswer);
  /** Answers one question: true/false, or a verdict with credited players. */
  judge?: (judged: Judged) => boolean | { passed: boolean; players?: string[] };
}

/** An AI that answers from data and records every request, for tests. */
export class DataAi implements AiPorts {
  readonly classified: IntentRequest[] = [];
  readonly narrated: NarrationRequest[] = [];
  readonly judged: JudgeRequest[] = [];

  constructor(public script: AiScript = {}) {}

  async classify(request: IntentRequest): Promise<IntentAnswer> {
    this.classified.push(request);
    const intent = this.script.intent;
    return typeof intent === "function" ? intent(request) : (intent ?? { intent: "other" });
  }

  async narrate(request: NarrationRequest): Promise<NarrationAnswer> {
    this.narrated.push(request);
    const story = this.script.story;
    const answer = typeof story === "function" ? story(request) : (story ?? `Story of tick ${request.tick}.`);
    return typeof answer === "string" ? { text: answer } : answer;
  }

  async judge(request: JudgeRequest): Promise<JudgeVerdict[]> {
    this.judged.push(request);
    return request.questions.map((question) => {
      const answer = this.script.judge?.({ question, request }) ?? false;
      const verdict = typeof answer === "boolean" ? { passed: answer } : answer;
      return { trigger: question.trigger, conditionIndex: question.conditionIndex, ...verdict };
    });
  }
}

export type ScriptBehaviour = (
  call: ScriptCall,
  info: ScriptPhaseInfo,
) => Partial<ScriptOutcome> & { status?: "ok" | "error" };

/**
 * A ScriptRunner for tests: the behaviour of each trigger's script is given as
 * a function of the call, keyed by trigger name (the real sandbox comes from
 * src/sandbox). Records phases begun and ended.
 */
export class DataRunner implements ScriptRunner {
  readonly phases: ScriptPhaseInfo[] = [];
  readonly calls: ScriptCall[] = [];
  ended = 0;

  constructor(private readonly behaviours: Record<string, ScriptBehaviour>) {}

  async beginPhase(info: ScriptPhaseInfo) {
    this.phases.push(info);
    return {
      run: async (call: ScriptCall): Promise<ScriptOutcome> => {
        this.calls.push(call);
        const behaviour = this.behaviours[call.trigger];
        const result = behaviour ? behaviour(call, info) : {};
        if (result.status === "error") {
          const r = result as Partial<Extract<ScriptOutcome, { status: "error" }>>;
          return {
            status: "error",
            failure: r.failure ?? "runtime",
            message: r.message ?? "boom",
            line: r.line ?? 1,
            column: r.column ?? 1,
            logs: r.logs ?? [],
            elapsedMs: 1,
          };
        }
        const r = result as Partial<Extract<ScriptOutcome, { status: "ok" }>>;
        return {
          status: "ok",
          storage: r.storage ?? call.storage,
          storageRejected: r.storageRejected ?? false,
          effects: r.effects ?? call.effects,
          skip: r.skip ?? false,
          triggers: r.triggers ?? null,
          logs: r.logs ?? [],
          elapsedMs: 1,
        };
      },
      end: async () => {
        this.ended++;
      },
    };
  }

  async close() {}
}

export async function start(
  patch: Record<string, unknown> = {},
  options: Partial<SessionOptions> = {},
): Promise<{ session: Session; ai: DataAi }> {
  const ai = (options.ai as DataAi | undefined) ?? new DataAi();
  const session = await createSession(worldWith(patch), { ...options, ai });
  return { session, ai };
}

/** One action by the default player. */
export function say(text: string, player = "Player") {
  return { actions: [{ player, text }] };
}

/**
 * An effect context over a fresh session's state (after the opening), for
 * testing effect modules directly: `apply` runs one effect through the real
 * parse/cap pipeline and returns its trace.
 */
export async function effectBench(
  patch: Record<string, unknown> = {},
  options: Partial<SessionOptions> = {},
) {
  const { session } = await start(patch, options);
  const index = indexWorld(session.world);
  const ctx: EffectContext = {
    state: session.state,
    index,
    recorder: newRecorder(),
    owner: "test_trigger",
    recurring: false,
    scope: "party",
    targets: session.state.party.filter((c) => c.kind === "player").map((c) => c.name),
  };
  const apply = (effect: unknown, more: Partial<EffectContext> = {}) =>
    applyEffects([effect], "typed", { ...ctx, ...more }, EFFECT_CAP)[0]!;
  return { ctx, apply, session };
}
