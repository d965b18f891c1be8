import { compileRegex, matchPattern } from "../world/pattern.ts";
import { callIdentity } from "./call-identity.ts";
import {
  actionMatches,
  evaluateCondition,
  isJudgedType,
  isTrustedCondition,
  matchingCharacters,
  PER_CHARACTER_TYPES,
  passesTrusted,
  readTrusted,
} from "./conditions/evaluate.ts";
import type { StepContext } from "./context.ts";
import { EngineError } from "./errors.ts";
import type {
  AiJudge,
  CheckSnapshot,
  Embedder,
  EventVerdict,
  JudgeQuestion,
  JudgeRequest,
  JudgeVerdict,
  Phase,
} from "./ports.ts";
import { addLog } from "./record.ts";
import { contentWords, cosine, coverage, type Ranked, rankByScore } from "./relevance.ts";
import { npcNamesHere, storySinceSummaryLines } from "./scene.ts";
import { subjectOf } from "./subject.ts";
import type { ConditionTrace, PhaseTrace, TriggerTrace } from "./trace.ts";
import { exclusionFor, type LiveTrigger } from "./trigger-pool.ts";
import { objectiveQuestOf } from "./world-index.ts";

/**
 * Step (1) of a phase (resolutions "Triggers"): the conditions of every armed
 * trigger of the phase are evaluated against the state at the start of the
 * phase. Mechanical conditions first; only triggers whose mechanical
 * conditions all pass are AI candidates; the best `maxJudged` candidates by
 * relevance go to the judge in ONE call. That fixes the firing set, with the
 * target players of each firing trigger.
 */
export interface Selection {
  /** One trace per trigger considered, in map order. */
  traces: TriggerTrace[];
  /** The firing triggers, in map order, with their trace (step 2 fills in script and effects). */
  firing: { live: LiveTrigger; trace: TriggerTrace }[];
  excluded: PhaseTrace["excluded"];
  judge: PhaseTrace["judge"];
  judgeCalls: number;
  embedCalls: number;
  /** The judge's verdict on the active narrative event, when it was asked (`SelectInput.event`). */
  eventVerdict?: EventVerdict;
}

export interface SelectInput {
  ctx: StepContext;
  phase: Phase;
  pool: readonly LiveTrigger[];
  snapshot: CheckSnapshot;
  actions: readonly { player: string; text: string }[];
  judge: AiJudge & Partial<Embedder>;
  maxJudged: number;
  /** AI verdicts fixed by the caller, by trigger key: those triggers are not sent to the judge. */
  pins?: Record<string, boolean>;
  /**
   * The active narrative event to ask about in this (state) phase's judge call,
   * when the narrator gave no verdict (issue 19 item 4).
   */
  event?: EventQuestion | null;
  signal?: AbortSignal;
}

export interface EventQuestion {
  key: string;
  title: string;
  beats: string;
}

export async function selectFiring(input: SelectInput): Promise<Selection> {
  const { ctx, phase, snapshot } = input;
  const traces: TriggerTrace[] = [];
  const excluded: PhaseTrace["excluded"] = [];
  const { lives, quests, metas, judged } = ofPhase(input.pool, phase, ctx.index);
  // Loops, not filter/some closures: this runs for every armed trigger of both phases of every
  // turn, and the first turns run before V8 has optimised it (each closure call costs there).
  const considered: LiveTrigger[] = [];
  const candidates: Candidate[] = [];
  const consumed = ctx.state.consumed;
  for (let i = 0; i < lives.length; i++) {
    const live = lives[i]!;
    if (Object.hasOwn(consumed, live.key)) continue;
    const quest = quests[i];
    const reason = quest === undefined ? null : exclusionFor(ctx.state, quest);
    if (reason !== null) {
      excluded.push({ trigger: live.key, reason });
      continue;
    }
    const trace = evaluateMechanical(ctx, phase, live, snapshot, metas[i]!);
    traces.push(trace);
    considered.push(live);
    if (trace.mechanicalPassed && judged[i]) candidates.push({ live, trace });
  }
  const judge = await judgeCandidates(input, candidates);
  const players = playersOf(ctx.state.party);
  const kept: { live: LiveTrigger; trace: TriggerTrace }[] = [];
  for (let i = 0; i < traces.length; i++) {
    const trace = traces[i]!;
    if (!decide(trace)) continue;
    const live = considered[i]!;
    trace.targets = targetsOf(live, trace, snapshot, input.actions, players);
    if (live.trigger.scope !== "player" || trace.targets.length > 0) kept.push({ live, trace });
    else {
      trace.fired = false;
      trace.suppressed = true;
    }
  }
  for (const { trace } of kept) trace.fired = true;
  return {
    traces,
    firing: kept,
    excluded,
    judge: judge.trace,
    judgeCalls: judge.calls,
    embedCalls: judge.embedCalls,
    ...(judge.eventVerdict !== undefined ? { eventVerdict: judge.eventVerdict } : {}),
  };
}

/** The names of the party's players, in party order. */
function playersOf(party: SelectInput["ctx"]["state"]["party"]): string[] {
  const players: string[] = [];
  for (const c of party) if (c.kind === "player") players.push(c.name);
  return players;
}

/** A phase's triggers with what a turn reads of each besides the state, fixed for the pool. */
interface PhaseTriggers {
  lives: LiveTrigger[];
  /** The quest of an objective trigger (exclusion), by position; undefined for other triggers. */
  quests: (string | undefined)[];
  metas: ConditionMeta[][];
  /** Whether the trigger has an AI-judged condition (a candidate when its mechanical ones pass), by position. */
  judged: boolean[];
}

const byPhase = new WeakMap<readonly LiveTrigger[], Record<Phase, PhaseTriggers>>();

/**
 * The pool's triggers of one phase, in map order, with their objective quest and condition meta:
 * worked out once per pool (the pool of an unedited map is kept per world), not per trigger per turn.
 */
function ofPhase(pool: readonly LiveTrigger[], phase: Phase, index: StepContext["index"]): PhaseTriggers {
  let split = byPhase.get(pool);
  if (split === undefined) {
    split = {
      planning: { lives: [], quests: [], metas: [], judged: [] },
      state: { lives: [], quests: [], metas: [], judged: [] },
    };
    for (const live of pool) {
      const entry = split[live.phase];
      const meta = conditionMeta(live.trigger.conditions);
      entry.lives.push(live);
      entry.quests.push(objectiveQuestOf(index.world, live.key));
      entry.metas.push(meta);
      entry.judged.push(anyJudged(meta));
    }
    byPhase.set(pool, split);
  }
  return split[phase];
}

function anyJudged(meta: readonly ConditionMeta[]): boolean {
  for (const m of meta) if (m.judged) return true;
  return false;
}

function evaluateMechanical(
  ctx: StepContext,
  phase: Phase,
  live: LiveTrigger,
  snapshot: CheckSnapshot,
  meta: ConditionMeta[],
): TriggerTrace {
  const list = live.trigger.conditions;
  // Sized once: one entry per condition (a list grown by push reserves room for 17).
  const conditions: ConditionTrace[] = new Array(list.length);
  let mechanicalPassed = true;
  const storage = ctx.state.storage;
  for (let index = 0; index < list.length; index++) {
    const condition = list[index]!;
    const { type, judged, trusted, subject, operator } = meta[index]!;
    if (judged) {
      const fields = condition as unknown as Record<string, unknown>;
      conditions[index] = {
        index,
        type,
        actual: undefined,
        expected: fields.query,
        passed: null,
        judged: true,
      };
      continue;
    }
    if (trusted && operator !== "regex") {
      // What evaluateCondition gives a trusted condition, without its result object.
      const fields = condition as unknown as Record<string, unknown>;
      const actual = readTrusted(fields, snapshot, storage);
      const expected = fields.value;
      const passed = passesTrusted(fields, actual);
      if (!passed) mechanicalPassed = false;
      conditions[index] = conditionTrace(index, type, actual, expected, passed, subject, operator);
      continue;
    }
    const result = evaluateCondition(condition, snapshot, storage, matchPattern, trusted);
    if (result.passed !== true) mechanicalPassed = false;
    if (result.badPattern !== undefined && !ctx.state.badPatterns.includes(result.badPattern)) {
      ctx.state.badPatterns.push(result.badPattern);
      addLog(ctx.state, ctx.recorder, {
        tick: ctx.state.tick,
        phase,
        trigger: live.key,
        type: "notice",
        message: `The regex ${JSON.stringify(result.badPattern)} does not compile (${whyNot(result.badPattern)}), so this condition never matches. Fix the pattern (taleforge check reports it as condition/regex-pattern).`,
      });
    }
    const trace = conditionTrace(
      index,
      type,
      result.actual,
      result.expected,
      result.passed,
      subject,
      operator,
    );
    if (result.error !== undefined) trace.error = result.error;
    conditions[index] = trace;
  }
  return {
    trigger: live.key,
    conditions,
    mechanicalPassed,
    candidate: false,
    fired: false,
    targets: [],
    effects: [],
    consumed: false,
  };
}

/**
 * A mechanical condition's trace, one literal per shape, so the object is made with all its fields
 * at once (adding fields later allocates a second store); the key order, and so the JSON, is the
 * same as when the fields were added one by one.
 */
function conditionTrace(
  index: number,
  type: string,
  actual: unknown,
  expected: unknown,
  passed: boolean,
  subject: string | undefined,
  operator: string | undefined,
): ConditionTrace {
  if (subject !== undefined)
    return operator !== undefined
      ? { index, type, actual, expected, passed, subject, operator }
      : { index, type, actual, expected, passed, subject };
  return operator !== undefined
    ? { index, type, actual, expected, passed, operator }
    : { index, type, actual, expected, passed };
}

/** What evaluateMechanical reads of a condition besides its value, the same on every turn for a frozen one. */
interface ConditionMeta {
  type: string;
  judged: boolean;
  /** Frozen and well formed: evaluateCondition need not check its form again. */
  trusted: boolean;
  subject: string | undefined;
  operator: string | undefined;
}

const metaCache = new WeakMap<readonly unknown[], ConditionMeta[]>();

/**
 * The meta of each condition of a trigger: kept per conditions list when the
 * list and every condition in it are frozen (the world's triggers), computed
 * again otherwise (a script's edit of the trigger map), so that a turn does
 * not ask every condition of every armed trigger the same questions again.
 */
function conditionMeta(list: readonly unknown[]): ConditionMeta[] {
  const cached = metaCache.get(list);
  if (cached !== undefined) return cached;
  let frozen = Object.isFrozen(list);
  const meta: ConditionMeta[] = [];
  for (const condition of list) {
    const fields = condition as Record<string, unknown>;
    const type = typeof fields.type === "string" ? fields.type : "(none)";
    const judged = isJudgedType(type);
    if (!Object.isFrozen(condition)) frozen = false;
    meta.push({
      type,
      judged,
      trusted: !judged && isTrustedCondition(condition),
      subject: subjectOf(fields),
      operator: typeof fields.operator === "string" ? fields.operator : undefined,
    });
  }
  if (frozen) metaCache.set(list, meta);
  return meta;
}

interface Judged {
  trace: PhaseTrace["judge"];
  calls: number;
  embedCalls: number;
  eventVerdict?: EventVerdict;
}

async function judgeCandidates(
  input: SelectInput,
  candidates: { live: LiveTrigger; trace: TriggerTrace }[],
): Promise<Judged> {
  const trace: PhaseTrace["judge"] = {
    called: false,
    candidates: [],
    sent: [],
    left: [],
    pinned: [],
    ranking: "lexical",
  };
  const event = input.event ?? null;
  if (candidates.length === 0 && event === null) return { trace, calls: 0, embedCalls: 0 };
  const ctx = input.ctx;
  const players = playersOf(ctx.state.party);
  const pins = input.pins ?? {};
  const unpinned: typeof candidates = [];
  for (const entry of candidates) {
    if (!Object.hasOwn(pins, entry.live.key)) {
      unpinned.push(entry);
      continue;
    }
    entry.trace.candidate = true;
    trace.candidates.push(entry.live.key);
    trace.pinned.push(entry.live.key);
    applyPin(entry.trace, pins[entry.live.key] === true, players);
  }
  if (unpinned.length === 0 && event === null) return { trace, calls: 0, embedCalls: 0 };
  const scored =
    unpinned.length === 0 ? { items: [], calls: 0 } : await scoreCandidates(input, unpinned, trace);
  const ranked = rankByScore(scored.items);
  const questions: JudgeQuestion[] = [];
  for (let rank = 0; rank < ranked.length; rank++) {
    const { item, score } = ranked[rank]!;
    const { live, trace: t } = item;
    t.candidate = true;
    t.rank = rank + 1;
    t.relevance = Math.round(score * 1000) / 1000;
    trace.candidates.push(live.key);
    if (rank >= input.maxJudged) {
      t.verdict = "not among the top N";
      trace.left.push(live.key);
      continue;
    }
    trace.sent.push(live.key);
    const since = lastFired(ctx.state, live);
    for (const c of t.conditions) {
      if (!c.judged) continue;
      const question: JudgeQuestion = {
        trigger: live.key,
        conditionIndex: c.index,
        kind: c.type as "story" | "action",
        query: String(c.expected),
      };
      if (since !== undefined && c.type === "story") question.since = since;
      questions.push(question);
    }
  }
  if (event !== null) questions.push(...eventQuestions(event));
  if (questions.length === 0) return { trace, calls: 0, embedCalls: scored.calls };
  let verdicts: JudgeVerdict[];
  const request: JudgeRequest = {
    phase: input.phase,
    tick: ctx.state.tick,
    ...callIdentity(ctx.state, input.phase === "state" ? "judge-state" : "judge-planning"),
    questions,
    storyText: input.snapshot.storyText,
    actions: copies(input.actions),
    players,
    history: { summary: ctx.state.summary.text, entries: storySinceSummaryLines(ctx) },
    scene: { position: { ...ctx.state.position }, npcsPresent: npcNamesHere(ctx) },
  };
  try {
    verdicts = await input.judge.judge(request, input.signal);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    // Issue 19 item 5: the state phase runs after the player read the story, so a failed judge
    // call cannot void the turn. Its questions count as "not passed" for this tick (the triggers
    // stay armed) and the log says so. A cancelled turn is still cancelled.
    if (input.phase !== "state" || input.signal?.aborted)
      throw new EngineError("ai/failed", "judge", { phase: input.phase, reason: message }, { port: "judge" });
    addLog(ctx.state, ctx.recorder, {
      tick: ctx.state.tick,
      phase: input.phase,
      trigger: null,
      type: "notice",
      message: `The AI judge failed in the state phase (${message}); its ${questions.length} question(s) count as not passed this turn and the triggers stay armed.`,
    });
    trace.failed = message;
    verdicts = [];
  }
  trace.called = true;
  const list = Array.isArray(verdicts) ? verdicts : [];
  const sent: TriggerTrace[] = [];
  for (const r of ranked.slice(0, input.maxJudged)) sent.push(r.item.trace);
  applyVerdicts(sent, list, players);
  const unanswered: string[] = [];
  for (const t of sent) if (t.verdict === "no verdict") unanswered.push(t.trigger);
  if (unanswered.length > 0 && trace.failed === undefined)
    addLog(ctx.state, ctx.recorder, {
      tick: ctx.state.tick,
      phase: input.phase,
      trigger: null,
      type: "notice",
      message: `The AI judge gave no verdict for ${unanswered.slice(0, 5).join(", ")}${unanswered.length > 5 ? ` and ${unanswered.length - 5} more` : ""}; those conditions count as not passed this turn.`,
    });
  const out: Judged = { trace, calls: 1, embedCalls: scored.calls };
  if (event !== null && trace.failed === undefined) {
    const verdict = eventVerdictOf(event, list);
    if (verdict !== undefined) out.eventVerdict = verdict;
  }
  return out;
}

/** Shallow copies of the turn's actions (the request must not share them). */
function copies(actions: readonly { player: string; text: string }[]): { player: string; text: string }[] {
  const out: { player: string; text: string }[] = [];
  for (const a of actions) out.push({ ...a });
  return out;
}

/** The key the event's questions are asked under, as in the log's `trigger` field for events. */
export function eventQuestionKey(event: string): string {
  return `narrativeEvents/${event}`;
}

/** Two questions about the active event: did this turn reach its outcome (0), or leave it (1)? */
function eventQuestions(event: EventQuestion): JudgeQuestion[] {
  const trigger = eventQuestionKey(event.key);
  const beats = event.beats.replace(/\s+/g, " ").trim().slice(0, 600);
  return [
    {
      trigger,
      conditionIndex: 0,
      kind: "event",
      query: `This turn's story reached the outcome of the narrative event "${event.title}" (its beats: ${beats}).`,
    },
    {
      trigger,
      conditionIndex: 1,
      kind: "event",
      query: `In this turn's story the party disengaged from the narrative event "${event.title}" without reaching its outcome (for example, it left the place where the event began).`,
    },
  ];
}

/** Completed wins a tie (resolutions "Narrative events"); no answer to either question is undefined. */
function eventVerdictOf(event: EventQuestion, verdicts: readonly JudgeVerdict[]): EventVerdict | undefined {
  const trigger = eventQuestionKey(event.key);
  const completed = answerTo(verdicts, trigger, 0);
  const stopped = answerTo(verdicts, trigger, 1);
  if (completed === true) return "completed";
  if (stopped === true) return "stopped";
  if (completed === false || stopped === false) return "neither";
  return undefined;
}

/** The first verdict on a question, as given (`passed` may be anything the judge sent). */
function answerTo(verdicts: readonly JudgeVerdict[], trigger: string, index: number): boolean | undefined {
  for (const v of verdicts) if (v && v.trigger === trigger && v.conditionIndex === index) return v.passed;
  return undefined;
}

/** A pinned trigger: each AI-judged condition takes the pinned verdict, crediting every player. */
function applyPin(trace: TriggerTrace, passed: boolean, players: string[]): void {
  for (const condition of trace.conditions) {
    if (!condition.judged) continue;
    condition.passed = passed;
    condition.actual = passed;
    condition.pinned = true;
    condition.players = [...players];
  }
  trace.verdict = passed ? "passed" : "failed";
}

type Candidate = { live: LiveTrigger; trace: TriggerTrace };

/**
 * Relevance of each candidate: the best similarity of its AI-judged queries
 * to the text they are judged against (the story for `story`, the actions for
 * `action`). Embeddings are asked for only when ranking decides something
 * (more candidates than maxJudged) and the provider has them; a failed
 * embedding call falls back to lexical coverage, with a log notice.
 */
async function scoreCandidates(
  input: SelectInput,
  candidates: Candidate[],
  trace: PhaseTrace["judge"],
): Promise<{ items: Ranked<Candidate>[]; calls: number }> {
  const storyText = input.snapshot.storyText;
  const actionText = actionsText(input.actions);
  if (input.judge.embed && candidates.length > input.maxJudged) {
    const queries: string[] = [];
    for (const entry of candidates)
      for (const c of entry.trace.conditions) if (c.judged) queries.push(String(c.expected));
    try {
      const vectors = await input.judge.embed([storyText, actionText, ...queries], input.signal);
      if (!Array.isArray(vectors) || vectors.length !== queries.length + 2)
        throw new Error(
          `expected ${queries.length + 2} vectors, got ${Array.isArray(vectors) ? vectors.length : "none"}`,
        );
      // The vectors of the queries follow the story's and the actions' (0 and 1), in query order.
      let next = 2;
      const items: Ranked<Candidate>[] = [];
      for (const entry of candidates) {
        let score = Number.NEGATIVE_INFINITY;
        for (const c of entry.trace.conditions)
          if (c.judged)
            score = Math.max(score, cosine(vectors[next++]!, vectors[c.type === "story" ? 0 : 1]!));
        items.push({ item: entry, score });
      }
      trace.ranking = "embedding";
      return { items, calls: 1 };
    } catch (error) {
      addLog(input.ctx.state, input.ctx.recorder, {
        tick: input.ctx.state.tick,
        phase: input.phase,
        trigger: null,
        type: "notice",
        message: `Ranking AI-judged triggers by embeddings failed (${(error as Error)?.message ?? error}); lexical relevance was used instead.`,
      });
    }
  }
  const storyWords = contentWords(storyText);
  const actionWords = contentWords(actionText);
  const items: Ranked<Candidate>[] = [];
  for (const entry of candidates) {
    let score = Number.NEGATIVE_INFINITY;
    for (const c of entry.trace.conditions)
      if (c.judged)
        score = Math.max(
          score,
          coverage(queryWords(String(c.expected)), c.type === "story" ? storyWords : actionWords),
        );
    items.push({ item: entry, score });
  }
  return { items, calls: input.judge.embed && candidates.length > input.maxJudged ? 1 : 0 };
}

/** The actions' texts, one a line. */
function actionsText(actions: readonly { text: string }[]): string {
  const texts: string[] = [];
  for (const a of actions) texts.push(a.text);
  return texts.join("\n");
}

/** Content words of each query seen: the same conditions are ranked turn after turn. Read-only sets. */
const queryWordCache = new Map<string, ReadonlySet<string>>();

function queryWords(query: string): ReadonlySet<string> {
  let words = queryWordCache.get(query);
  if (words === undefined) {
    // A bound, not a policy: a world's AI-judged conditions are far fewer (spec 8 caps them at 200 triggers).
    if (queryWordCache.size >= 20_000) queryWordCache.clear();
    words = contentWords(query);
    queryWordCache.set(query, words);
  }
  return words;
}

/**
 * Records the judge's answers on the sent candidates' conditions. A condition
 * with no answer fails. A verdict without `players` credits every player; an
 * explicit list credits only the listed players of the party.
 */
function applyVerdicts(sent: TriggerTrace[], verdicts: unknown[], players: string[]): void {
  const byKey = new Map<string, JudgeVerdict>();
  for (const v of verdicts) {
    const verdict = v as JudgeVerdict;
    if (verdict && typeof verdict.trigger === "string" && Number.isInteger(verdict.conditionIndex)) {
      byKey.set(`${verdict.conditionIndex}:${verdict.trigger}`, verdict);
    }
  }
  for (const trace of sent) {
    let missing = false;
    let failed = false;
    for (const condition of trace.conditions) {
      if (!condition.judged) continue;
      const verdict = byKey.get(`${condition.index}:${trace.trigger}`);
      if (!verdict) {
        missing = true;
        condition.passed = false;
        condition.error = "the judge gave no verdict";
        continue;
      }
      condition.passed = verdict.passed === true;
      condition.actual = condition.passed;
      if (!condition.passed) failed = true;
      condition.players = Array.isArray(verdict.players) ? onlyIn(players, verdict.players) : [...players];
    }
    trace.verdict = failed ? "failed" : missing ? "no verdict" : "passed";
  }
}

function decide(trace: TriggerTrace): boolean {
  if (!trace.mechanicalPassed) return false;
  if (!trace.candidate) return true;
  return trace.verdict === "passed";
}

/**
 * The players who satisfy a trigger (resolutions "Triggers", `scope: "player"`):
 * the players meeting every player-level/player-resource/player-traits
 * condition, intersected with the players credited for each story/action
 * condition, and (our documented extension) with the players whose own action
 * satisfies each action-text condition.
 */
function targetsOf(
  live: LiveTrigger,
  trace: TriggerTrace,
  snapshot: CheckSnapshot,
  actions: readonly { player: string; text: string }[],
  players: readonly string[],
): string[] {
  let targets = [...players];
  const conditions = live.trigger.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const condition = conditions[i]!;
    const type = condition.type;
    if (PER_CHARACTER_TYPES.includes(type)) {
      targets = onlyIn(targets, matchingCharacters(condition, snapshot));
    } else if (type === "action-text") {
      const acting: string[] = [];
      for (const a of actions) if (actionMatches(condition, a.text, matchPattern)) acting.push(a.player);
      trace.conditions[i]!.players = acting;
      targets = onlyIn(targets, acting);
    } else if (isJudgedType(type)) {
      targets = onlyIn(targets, trace.conditions[i]!.players ?? []);
    }
  }
  return targets;
}

/** The names of `names` that `allowed` holds, in `names`' order. */
function onlyIn(names: readonly string[], allowed: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const name of names) if (allowed.includes(name)) out.push(name);
  return out;
}

/** Why RE2 refuses a pattern, for the log. */
function whyNot(pattern: string): string {
  const compiled = compileRegex(pattern);
  return compiled.ok ? "unknown reason" : compiled.reason;
}

/** The tick a recurring trigger last fired at, or undefined (never fired, or not recurring). */
function lastFired(state: StepContext["state"], live: { key: string; trigger: { recurring?: unknown } }) {
  if (live.trigger.recurring !== true || !state.recurringFired) return undefined;
  return Object.hasOwn(state.recurringFired, live.key) ? state.recurringFired[live.key] : undefined;
}
