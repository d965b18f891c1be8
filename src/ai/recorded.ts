import { legacyOutcomeText } from "../engine/outcome.ts";
import type {
  IntentAnswer,
  IntentRequest,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
  Outcome,
  SummaryRequest,
} from "../engine/ports.ts";
import {
  type CallEntry,
  type CallName,
  type CassetteData,
  type CassetteEntry,
  isCallEntry,
  type TapeSink,
} from "./cassette.ts";
import { AI_ERROR_KINDS, AiError, type AiErrorKind } from "./errors.ts";
import { emptyUsage, type Provider, type Usage, usageSince } from "./provider.ts";

/**
 * The recorded provider: `recordProvider` wraps any provider and writes every
 * request and answer (streamed chunks and failures included) to a tape;
 * `Replay` plays a tape back as a provider, checking that each request is the
 * one recorded, so that a game replayed from its cassette ends in the same
 * state. Host inputs travel on the same tape, in order, between the calls.
 */

export interface RecordingProvider extends Provider {
  /** Writes a host input (an action, a quest answer, an undo) to the tape at this point. */
  input(value: unknown): void;
}

export function recordProvider(inner: Provider, sink: TapeSink): RecordingProvider {
  // A sink of text gets each entry stringified once, when it is made (so later changes to a request
  // do not reach it, as with the copy): no deep copy per call (toJson's parse of its own stringify).
  const writeJson = sink.writeJson?.bind(sink);
  const write = (
    call: CallName,
    request: unknown,
    parts: { answer?: unknown; error?: CallEntry["error"]; usage: Usage; chunks: string[] | undefined },
  ) => {
    if (writeJson) writeJson(entryText(call, request, parts));
    else sink.write(entry(call, request, parts));
  };
  const record = async <T>(
    call: CallName,
    request: unknown,
    run: () => Promise<T>,
    chunks?: string[],
  ): Promise<T> => {
    const before = inner.usage();
    try {
      const answer = await run();
      write(call, request, { answer, usage: usageSince(before, inner.usage()), chunks });
      return answer;
    } catch (error) {
      const kind = error instanceof AiError ? error.kind : "server";
      write(call, request, {
        error: { kind, message: (error as Error)?.message ?? String(error) },
        usage: usageSince(before, inner.usage()),
        chunks,
      });
      throw error;
    }
  };
  const provider: RecordingProvider = {
    name: `recorded(${inner.name})`,
    model: inner.model,
    usage: () => inner.usage(),
    close: () => inner.close(),
    input: (value) => {
      if (writeJson) writeJson(JSON.stringify({ input: value === undefined ? null : value }));
      else sink.write({ input: toJson(value) });
    },
    classify: (request: IntentRequest, signal?: AbortSignal) =>
      record("classify", request, () => inner.classify(request, signal)),
    narrate: (request: NarrationRequest, onChunk?: (text: string) => void, signal?: AbortSignal) => {
      const chunks: string[] = [];
      return record(
        "narrate",
        request,
        () =>
          inner.narrate(
            request,
            (text) => {
              chunks.push(text);
              onChunk?.(text);
            },
            signal,
          ),
        chunks,
      );
    },
    judge: (request: JudgeRequest, signal?: AbortSignal) =>
      record("judge", request, () => inner.judge(request, signal)),
  };
  if (inner.summarise) {
    const summarise = inner.summarise.bind(inner);
    provider.summarise = (request: SummaryRequest, signal?: AbortSignal) =>
      record("summarise", request, () => summarise(request, signal));
  }
  if (inner.lastRequests) provider.lastRequests = inner.lastRequests.bind(inner);
  if (inner.embed) {
    const embed = inner.embed.bind(inner);
    provider.embed = (texts: string[], signal?: AbortSignal) =>
      record("embed", { texts }, () => embed(texts, signal));
  }
  return provider;
}

function entry(
  call: CallName,
  request: unknown,
  parts: { answer?: unknown; error?: CallEntry["error"]; usage: Usage; chunks: string[] | undefined },
): CallEntry {
  const out: CallEntry = { call, request: toJson(request) };
  if (parts.error) out.error = parts.error;
  else out.answer = toJson(parts.answer);
  if (parts.chunks && parts.chunks.length > 0) out.chunks = [...parts.chunks];
  out.usage = parts.usage;
  return out;
}

/** `JSON.stringify(entry(...))` without its copies: the same text (undefined values as null, as toJson makes them). */
function entryText(
  call: CallName,
  request: unknown,
  parts: { answer?: unknown; error?: CallEntry["error"]; usage: Usage; chunks: string[] | undefined },
): string {
  const out: Record<string, unknown> = { call, request: request === undefined ? null : request };
  if (parts.error) out.error = parts.error;
  else out.answer = parts.answer === undefined ? null : parts.answer;
  if (parts.chunks && parts.chunks.length > 0) out.chunks = parts.chunks;
  out.usage = parts.usage;
  return JSON.stringify(out);
}

/** The JSON form of a value, as it is written and compared (undefined fields dropped). */
function toJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** Plays a cassette back: a provider that answers from the tape, and the host inputs in between. */
export class Replay {
  private at = 0;
  private used = emptyUsage();
  readonly provider: Provider;
  /** Why the game left the recording, once it has; null while it follows it. A recorded failure is not one. */
  diverged: string | null = null;

  constructor(
    private readonly data: CassetteData,
    private readonly name = "the cassette",
  ) {
    const provider: Provider = {
      name: `replay(${data.header.provider})`,
      model: data.header.model,
      usage: () => ({ ...this.used }),
      close: async () => {},
      classify: async (request: IntentRequest) => this.answer("classify", request) as IntentAnswer,
      narrate: async (request: NarrationRequest, onChunk?: (text: string) => void) => {
        const recorded = this.take("narrate", request);
        for (const chunk of recorded.chunks ?? []) onChunk?.(chunk);
        return this.settle(recorded) as NarrationAnswer;
      },
      judge: async (request: JudgeRequest) => this.answer("judge", request) as JudgeVerdict[],
      summarise: async (request: SummaryRequest) => this.answer("summarise", request) as { summary: string },
    };
    if (data.header.embeddings) {
      provider.embed = async (texts: string[]) => this.answer("embed", { texts }) as number[][];
    }
    this.provider = provider;
  }

  get header() {
    return this.data.header;
  }

  /** The next host input, or undefined when the next entry is not one (or the tape is over). */
  nextInput(): unknown {
    this.skipPlayed();
    const next = this.data.entries[this.at];
    if (next === undefined || isCallEntry(next)) return undefined;
    this.at++;
    return next.input;
  }

  /** Whether every entry was played. */
  get finished(): boolean {
    return this.remaining === 0;
  }

  /** Entries not played yet. */
  get remaining(): number {
    return this.data.entries.length - this.at - this.ahead.size;
  }

  private answer(call: CallName, request: unknown): unknown {
    return this.settle(this.take(call, request));
  }

  private take(call: CallName, request: unknown): CallEntry {
    try {
      return this.match(call, request);
    } catch (error) {
      this.diverged = (error as Error).message;
      throw error;
    }
  }

  /**
   * Entries after `at` already played: calls the engine makes at once (the
   * intent beside the planning judge, the summary beside the state judge)
   * are written in the order they finished, which a replay need not repeat.
   * A call may take a matching entry among the next CONCURRENT call entries
   * (never past a player input).
   */
  private readonly ahead = new Set<number>();

  private skipPlayed(): void {
    while (this.ahead.delete(this.at)) this.at++;
  }

  private match(call: CallName, request: unknown): CallEntry {
    this.skipPlayed();
    const index = this.at;
    const next: CassetteEntry | undefined = this.data.entries[index];
    if (next !== undefined && isCallEntry(next) && next.call !== call) {
      const later = this.lookAhead(call, request);
      if (later !== null) return later;
    }
    const where = `${this.name}, entry ${index + 1}`;
    if (next === undefined) throw AiError.of("cassette", "after-end", { call, name: this.name });
    if (!isCallEntry(next)) throw AiError.of("cassette", "input-recorded", { where, call });
    if (next.call !== call) throw AiError.of("cassette", "other-call", { where, call, recorded: next.call });
    const difference = firstDifference(next.request, asWhenRecorded(call, next.request, toJson(request)), "");
    if (difference !== null) throw AiError.of("cassette", "other-request", { where, call, difference });
    this.at++;
    this.skipPlayed();
    return next;
  }

  private lookAhead(call: CallName, request: unknown): CallEntry | null {
    const wanted = toJson(request);
    for (let i = this.at + 1, seen = 0; i < this.data.entries.length && seen < CONCURRENT; i++) {
      const entry = this.data.entries[i]!;
      if (!isCallEntry(entry)) return null;
      if (this.ahead.has(i)) continue;
      seen++;
      if (
        entry.call === call &&
        firstDifference(entry.request, asWhenRecorded(call, entry.request, wanted), "") === null
      ) {
        this.ahead.add(i);
        return entry;
      }
    }
    return null;
  }

  private settle(entry: CallEntry): unknown {
    if (entry.usage) {
      this.used.calls += entry.usage.calls;
      this.used.promptTokens += entry.usage.promptTokens;
      this.used.completionTokens += entry.usage.completionTokens;
    }
    if (entry.error) {
      const kind = (
        Object.hasOwn(AI_ERROR_KINDS, entry.error.kind) ? entry.error.kind : "server"
      ) as AiErrorKind;
      throw new AiError(kind, entry.error.message);
    }
    return entry.answer;
  }
}

/**
 * Request fields added after tapes were recorded, by call: hints whose absence meant what the tapes
 * already answered. A tape without one is compared without it, so a game recorded before the field
 * existed (a server game's stored turns, a bug report's tape) still replays.
 */
const LATER_FIELDS: Partial<Record<CallName, readonly string[]>> = {
  // NarrationRequest.actionsAnswered (a planning trigger fired on the actions); .context (issue 39).
  narrate: ["actionsAnswered", "context"],
};

/** `request` without the later fields that `recorded` lacks (see LATER_FIELDS). */
function asWhenRecorded(call: CallName, recorded: unknown, request: unknown): unknown {
  if (call === "judge") return judgeAsRecorded(recorded, request);
  if (call === "narrate") request = outcomesAsRecorded(recorded, request);
  const later = LATER_FIELDS[call];
  if (later === undefined || !isObject(recorded) || !isObject(request)) return request;
  const missing = later.filter((key) => !Object.hasOwn(recorded, key) && Object.hasOwn(request, key));
  const copy = { ...request };
  for (const key of missing) delete copy[key];
  // NarrationContext.standing came after the context itself (issue 39).
  const before = recorded.context;
  const now = copy.context;
  if (
    isObject(before) &&
    isObject(now) &&
    !Object.hasOwn(before, "standing") &&
    Object.hasOwn(now, "standing")
  ) {
    const { standing: _, ...rest } = now;
    copy.context = rest;
  }
  return copy;
}

/**
 * NarrationRequest.outcomes were English lines before they were data (issue 34): a tape holding lines
 * is compared with the lines the engine wrote then (legacyOutcomeText); kinds it never wrote (items,
 * resources, followers) are left out, as they were.
 */
function outcomesAsRecorded(recorded: unknown, request: unknown): unknown {
  if (!isObject(recorded) || !isObject(request) || !Array.isArray(recorded.outcomes)) return request;
  // An empty list may be either age: compared as lines, it still differs when a line was written.
  if (!Array.isArray(request.outcomes) || !recorded.outcomes.every((o) => typeof o === "string"))
    return request;
  const lines = (request.outcomes as Outcome[]).map(legacyOutcomeText).filter((l) => l !== null);
  return { ...request, outcomes: lines };
}

/**
 * JudgeQuestion.since (issue 39) came after tapes were recorded: a tape whose questions never carry
 * it is compared without it.
 */
function judgeAsRecorded(recorded: unknown, request: unknown): unknown {
  const questionsOf = (value: unknown) =>
    isObject(value) && Array.isArray(value.questions) ? (value.questions as unknown[]) : null;
  const before = questionsOf(recorded);
  const now = questionsOf(request);
  if (before === null || now === null || !isObject(request)) return request;
  if (before.some((q) => isObject(q) && Object.hasOwn(q, "since"))) return request;
  if (!now.some((q) => isObject(q) && Object.hasOwn(q, "since"))) return request;
  return {
    ...request,
    questions: now.map((q) => {
      if (!isObject(q) || !Object.hasOwn(q, "since")) return q;
      const { since: _, ...rest } = q;
      return rest;
    }),
  };
}

/** How far a replayed call may look past the next entry for its own (see Replay `ahead`). */
const CONCURRENT = 3;

/** The path of the first difference between two JSON values, with both sides; null when equal. */
export function firstDifference(recorded: unknown, actual: unknown, path: string): string | null {
  const here = path === "" ? "the top" : path;
  if (Object.is(recorded, actual)) return null;
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? "undefined";
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  };
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) {
      const found = firstDifference(recorded[i], actual[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (isObject(recorded) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])];
    for (const key of keys) {
      const found = firstDifference(recorded[key], actual[key], path === "" ? key : `${path}.${key}`);
      if (found !== null) return found;
    }
    return null;
  }
  return `${here} (recorded ${show(recorded)}, now ${show(actual)})`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
