import { callIdentity } from "./call-identity.ts";
import type { StepContext } from "./context.ts";
import { EngineError } from "./errors.ts";
import { own } from "./own.ts";
import type {
  IntentAnswer,
  NarrationAnswer,
  NarrationContext,
  NarrationRequest,
  Narrator,
  StoryLine,
  StorySegment,
  Summariser,
  SummaryRequest,
} from "./ports.ts";
import { addLog } from "./record.ts";
import { RECENT_STORY, sceneOf, storySinceSummaryLines, unsummarisedFrom } from "./scene.ts";

/**
 * The narration of a turn (or of the opening): ONE narrator call with the
 * scene, the one-time instructions that were pending before the turn began,
 * the mechanical outcomes so far and the active narrative event. The story
 * text joins the history. A pinned story (play-tests, dry runs) replaces the
 * call: no narrator is asked, so no event verdict or summary comes back.
 */
export interface NarrationInput {
  opening: boolean;
  actions: { player: string; text: string }[];
  intent: IntentAnswer | null;
  instructions: string[];
  /** Indices of `instructions` that came from recurring triggers (SessionState.pendingStanding). */
  standing?: number[];
  event: string | null;
  openingText?: string;
  pinned?: string;
  /** A planning-phase trigger fired on the actions (NarrationRequest.actionsAnswered). */
  answered?: boolean;
  /** The draw of a retried turn (NarrationRequest.draw); 0 or absent for the first. */
  draw?: number;
}

/** Story entries that wait outside the recent window before they are folded into the summary together. */
export const SUMMARY_BATCH = 4;
/** At most this many entries are sent to be summarised at once (a provider that never summarises cannot grow the prompt). */
export const SUMMARY_MAX_BATCH = 12;
/** A summary longer than this is cut: it goes into every later prompt. */
export const SUMMARY_MAX_CHARS = 4000;

/**
 * What a narration gives the turn: the story, the narrator's event verdict
 * when it gave one, and the story entries still to summarise when the
 * narrator did not summarise them itself (the turn asks the summariser for
 * them after the story was shown).
 */
export type Narrated = NarrationAnswer & { calls: number; summarise: StoryLine[] | null };

export async function narrate(
  ctx: StepContext,
  narrator: Narrator,
  input: NarrationInput,
  onChunk?: (text: string) => void,
  signal?: AbortSignal,
): Promise<Narrated> {
  if (input.pinned !== undefined) {
    ctx.state.history.story.push({ tick: ctx.state.tick, text: input.pinned });
    onChunk?.(input.pinned);
    return { text: input.pinned, calls: 0, summarise: null };
  }
  const request = narrationRequest(ctx, input);
  let answer: unknown;
  try {
    answer = await narrator.narrate(request, onChunk, signal);
  } catch (error) {
    throw new EngineError(
      "ai/failed",
      "narrator",
      { reason: `${(error as Error)?.message ?? error}` },
      { port: "narrate" },
    );
  }
  const text = (answer as NarrationAnswer | null)?.text;
  if (typeof text !== "string") {
    throw new EngineError("ai/failed", "narrator-text", {}, { port: "narrate" });
  }
  const { eventVerdict: verdict, summary, notice } = answer as NarrationAnswer;
  let pending = request.summarise;
  if (request.summarise && typeof summary === "string" && summary.trim() !== "") {
    applySummary(ctx, request.summarise, summary);
    pending = null;
  }
  if (typeof notice === "string" && notice.trim() !== "")
    addLog(ctx.state, ctx.recorder, {
      tick: ctx.state.tick,
      phase: input.opening ? "opening" : "turn",
      trigger: null,
      type: "notice",
      message: notice.slice(0, 1_000),
    });
  const story = input.opening && text.trim() === "" ? (input.openingText ?? "") : text;
  ctx.state.history.story.push({ tick: ctx.state.tick, text: story });
  const out: Narrated = { text: story, calls: 1, summarise: pending };
  if (verdict !== undefined) out.eventVerdict = verdict;
  const segments = segmentsOf((answer as NarrationAnswer).segments, story);
  if (segments) out.segments = segments;
  return out;
}

/** At most this many segments are kept from a narrator's answer. */
const MAX_SEGMENTS = 100;

/**
 * A narrator's segments, kept only when they are well formed and their paragraphs are exactly the
 * story (a page marks lines of the text it shows, never other text); undefined otherwise.
 */
function segmentsOf(value: unknown, story: string): StorySegment[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SEGMENTS) return undefined;
  const segments: StorySegment[] = [];
  for (const item of value) {
    const { actor, text } = (item ?? {}) as { actor?: unknown; text?: unknown };
    if (typeof text !== "string" || (actor !== null && typeof actor !== "string")) return undefined;
    segments.push({ actor, text });
  }
  return segments.map((s) => s.text).join("\n\n") === story ? segments : undefined;
}

/** The running summary now covers the story up to the last entry folded in. */
export function applySummary(ctx: StepContext, folded: readonly StoryLine[], summary: string): void {
  ctx.state.summary = { text: summary.trim().slice(0, SUMMARY_MAX_CHARS), upTo: folded.at(-1)!.tick };
}

/**
 * The running summary in its own call (issue 19 item 4), made after the
 * story was shown, beside the state phase: it never delays the first word
 * and never voids the turn. A missing or failed answer is a logged notice;
 * the entries stay unsummarised and are sent again on the next turn.
 * Returns the summary text to apply, or null.
 */
export async function summariseAfterStory(
  ctx: StepContext,
  ai: Partial<Summariser>,
  entries: StoryLine[] | null,
  signal?: AbortSignal,
): Promise<{ text: string | null; calls: number }> {
  if (entries === null || entries.length === 0) return { text: null, calls: 0 };
  const notice = (message: string) =>
    addLog(ctx.state, ctx.recorder, {
      tick: ctx.state.tick,
      phase: "turn",
      trigger: null,
      type: "notice",
      message,
    });
  if (typeof ai.summarise !== "function") {
    notice(
      `The running summary was due (${entries.length} story entries) but the AI wrote none; the entries are sent again next turn.`,
    );
    return { text: null, calls: 0 };
  }
  // Built now, before the state phase changes anything: the request is the same in a replay.
  const request: SummaryRequest = {
    tick: ctx.state.tick,
    ...callIdentity(ctx.state, "summary"),
    summary: ctx.state.summary.text,
    entries: entries.map((e) => ({ tick: e.tick, text: e.text })),
  };
  try {
    const answer = await ai.summarise(request, signal);
    const text = typeof answer?.summary === "string" ? answer.summary.trim() : "";
    if (text === "") {
      notice("The summariser answered without a summary; the entries are sent again next turn.");
      return { text: null, calls: 1 };
    }
    return { text, calls: 1 };
  } catch (error) {
    if (signal?.aborted) throw error;
    notice(
      `The running summary failed (${(error as Error)?.message ?? error}); the story was kept and the entries are sent again next turn.`,
    );
    return { text: null, calls: 1 };
  }
}

function narrationRequest(ctx: StepContext, input: NarrationInput): NarrationRequest {
  const definition = input.event === null ? undefined : own(ctx.index.world.narrativeEvents, input.event);
  return {
    tick: ctx.state.tick,
    ...callIdentity(ctx.state, "narration", input.draw ?? 0),
    ...(input.draw !== undefined && input.draw > 0 ? { draw: input.draw } : {}),
    opening: input.opening,
    actions: input.actions.map((a) => ({ ...a })),
    intent: input.intent,
    instructions: [...input.instructions],
    event:
      input.event !== null && definition
        ? {
            key: input.event,
            title: definition.title,
            beats: definition.beats,
            activeTurns: own(ctx.state.events, input.event)?.activeTurns ?? 0,
          }
        : null,
    scene: sceneOf(ctx, input.openingText),
    outcomes: [...ctx.recorder.outcomes],
    ...(input.answered ? { actionsAnswered: true as const } : {}),
    summary: ctx.state.summary.text,
    summarise: toSummarise(ctx),
    journal: journalOf(ctx),
    partyNextStep: ctx.state.partyNextStep?.text ?? null,
    context: contextOf(ctx, input.standing ?? []),
  };
}

/** The story start, the character sheets and the recent turns with their actions (NarrationContext). */
function contextOf(ctx: StepContext, standing: readonly number[]): NarrationContext {
  const { state } = ctx;
  const lines = storySinceSummaryLines(ctx);
  const from = lines[0]?.tick ?? Number.POSITIVE_INFINITY;
  const byTick = new Map<number, { player: string; text: string }[]>();
  // The actions history is in tick order: read from the end, only the window's turns.
  for (let i = state.history.actions.length - 1; i >= 0; i--) {
    const a = state.history.actions[i]!;
    if (a.tick < from) break;
    const list = byTick.get(a.tick);
    if (list) list.unshift({ player: a.player, text: a.text });
    else byTick.set(a.tick, [{ player: a.player, text: a.text }]);
  }
  return {
    storyStart: state.storyStart,
    sheets: state.party.map((c) => ({
      name: c.name,
      kind: c.kind,
      max: Object.fromEntries(Object.entries(c.resources).map(([k, v]) => [k, v.max])),
      items: { ...c.items },
      abilities: [...c.abilities],
    })),
    turns: lines.map((l) => ({ tick: l.tick, actions: byTick.get(l.tick) ?? [], story: l.text })),
    // Only when there is some: a tape recorded before the field compares equal without it.
    ...(standing.length > 0 ? { standing: [...standing] } : {}),
  };
}

/**
 * The entries that left the recent window (the last RECENT_STORY entries)
 * since the last summary, once there are SUMMARY_BATCH of them; the oldest
 * SUMMARY_MAX_BATCH when more are waiting.
 */
function toSummarise(ctx: StepContext): StoryLine[] | null {
  const story = ctx.state.history.story;
  const from = unsummarisedFrom(ctx);
  const end = story.length - RECENT_STORY;
  if (end - from < SUMMARY_BATCH) return null;
  return story
    .slice(from, Math.min(end, from + SUMMARY_MAX_BATCH))
    .map((s) => ({ tick: s.tick, text: s.text }));
}

function journalOf(ctx: StepContext): NarrationRequest["journal"] {
  const journal: NarrationRequest["journal"] = [];
  for (const [quest, entry] of Object.entries(ctx.state.quests)) {
    if (entry.status !== "available" && entry.status !== "accepted") continue;
    journal.push({ quest, status: entry.status, nextStep: entry.nextStep?.text ?? null });
  }
  return journal;
}
