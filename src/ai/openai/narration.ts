import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type { NarrationAnswer } from "../../engine/ports.ts";
import { AiError } from "../errors.ts";
import type { ChatMessage } from "../prompts/index.ts";
import { estimateTokens } from "../provider.ts";
import { describeFailure, type Failure, oneLine, StreamCut, seconds } from "./errors.ts";
import type { NarrationLimits } from "./limits.ts";
import { send } from "./send.ts";
import {
  contextOf,
  learnTokenParam,
  optionalParams,
  refusedParam,
  type Transport,
  tokenLimit,
} from "./transport.ts";
import { messagesText, type ReportedUsage } from "./usage.ts";

/** How one narration call is made: its limits, the engine's seed and the game's cache key. */
export interface NarrationCall {
  limits: NarrationLimits;
  seed?: number | undefined;
  game?: string | undefined;
}

/** Why a stream stopped before the model said it was done. */
type Stop =
  | { type: "chars" }
  | { type: "time" }
  | { type: "silence" }
  | { type: "broke"; failure: Failure }
  | { type: "unfinished" };

/** Marks shown after a story that did not end by itself: the player sees that it was cut, and why is logged. */
export const CUT_MARK = " (cut off)";
export const INTERRUPTED_MARK = " (interrupted)";

/**
 * Streams a narration: story text reaches `onChunk` as it arrives. Every
 * request carries `max_tokens`; what is received is capped in characters and
 * in total streaming time (limits.ts). A failed attempt is retried only while
 * nothing has been shown. Once the player has read part of the story, nothing
 * voids it (issue 19 item 5): a stream that breaks, goes silent, ends without
 * a finish_reason, or hits a limit keeps its text with a visible mark, and
 * `notice` says which limit or failure it was. Only a cancel by the caller
 * still fails the call.
 */
export async function streamNarration(
  transport: Transport,
  messages: ChatMessage[],
  onChunk: ((text: string) => void) | undefined,
  signal: AbortSignal | undefined,
  call: NarrationCall,
): Promise<NarrationAnswer> {
  const context = contextOf(transport, "narration");
  const limits = call.limits;
  // The streaming-time limit counts from the first chunk: waiting for it is bounded by the timeout.
  let started: number | null = null;
  let shown = false;
  let callbackError: { error: unknown } | null = null;
  const show = (text: string) => {
    if (text === "") return;
    shown = true;
    if (callbackError !== null || !onChunk) return;
    try {
      onChunk(text);
    } catch (error) {
      callbackError = { error };
    }
  };
  for (;;) {
    const optional = optionalParams(transport, {
      stream_options: { include_usage: true },
      temperature: limits.temperature,
      top_p: limits.topP,
      seed: call.seed,
      prompt_cache_key: call.game,
    });
    const outcome = await send(
      transport,
      context,
      signal,
      async (attempt) => {
        let stream: AsyncIterable<ChatCompletionChunk>;
        try {
          const body = {
            model: transport.model,
            messages,
            stream: true,
            ...tokenLimit(transport, limits.maxTokens),
            ...optional,
          };
          transport.sent.note("narration", body);
          stream = await transport.client.chat.completions.create(
            body as ChatCompletionCreateParamsStreaming,
            {
              signal: attempt.signal,
            },
          );
        } catch (error) {
          const failure = describeFailure(error);
          // Asked again with the token limit the server takes ("" refuses nothing).
          if (learnTokenParam(transport, failure)) return { refused: "" };
          const param = refusedParam(failure, optional);
          if (param !== null) return { refused: param as string };
          throw error;
        }
        const story = new TrimmedStory((text) => {
          // A chunk already read when the call was cancelled is not shown.
          if (!attempt.signal.aborted) show(text);
        });
        let raw = "";
        let refusal = "";
        let usage: ReportedUsage | null = null;
        let finish: string | null = null;
        let stop: Stop | null = null;
        try {
          for await (const chunk of stream) {
            attempt.alive();
            started ??= Date.now();
            if (chunk.usage) usage = chunk.usage;
            const choice = chunk.choices?.[0];
            if (typeof choice?.finish_reason === "string") finish = choice.finish_reason;
            const refused = (choice?.delta as { refusal?: unknown } | undefined)?.refusal;
            if (typeof refused === "string" && refusal.length < 2_000) refusal += refused;
            const delta = choice?.delta?.content;
            if (typeof delta === "string" && delta !== "") {
              const piece = delta.slice(0, limits.maxChars - raw.length);
              raw += piece;
              story.push(piece);
              if (raw.length >= limits.maxChars) {
                stop = { type: "chars" };
                break;
              }
            }
            if (Date.now() - started > limits.maxStreamMs) {
              stop = { type: "time" };
              break;
            }
          }
        } catch (error) {
          // Before any text, the attempt fails and may be retried; after it, the text is kept.
          if (story.text() === "" || signal?.aborted) throw error;
          stop = { type: "broke", failure: describeFailure(error) };
        }
        if (stop === null && attempt.signal.aborted && !signal?.aborted) stop = { type: "silence" };
        if (stop === null && finish === null && !attempt.signal.aborted) {
          // Issue 15 item 5: a stream that ends without a finish_reason is a failed call, not a story.
          if (story.text() === "" && refusal === "") throw new StreamCut(raw.length);
          stop = { type: "unfinished" };
        }
        return { text: story.text(), raw, refusal, usage, finish, stop };
      },
      () => !shown,
      (result) => "text" in result && result.text !== "",
    );
    if ("refused" in outcome && typeof outcome.refused === "string") {
      if (outcome.refused !== "") transport.accepts.refused.add(outcome.refused);
      continue;
    }
    if (!("text" in outcome)) continue;
    if (callbackError !== null) throw (callbackError as { error: unknown }).error;
    transport.usage.add(outcome.usage, { prompt: messagesText(messages), completion: outcome.raw });
    if (outcome.text === "") {
      if (outcome.refusal.trim() !== "" || outcome.finish === "content_filter")
        throw AiError.of("refused", "narration", {
          model: transport.model,
          refusal: quoted(outcome.refusal, transport.apiKey),
        });
      if (outcome.stop?.type === "time")
        throw AiError.of("timeout", "no-story", {
          baseUrl: transport.baseUrl,
          limit: seconds(limits.maxStreamMs),
        });
      throw AiError.of("bad-output", "no-story", { model: transport.model });
    }
    const notice = noticeOf(outcome.stop, outcome.finish, outcome.text.length, limits, transport);
    const truncated = truncationWarning(outcome.usage, messages);
    if (notice === null)
      return truncated === null ? { text: outcome.text } : { text: outcome.text, notice: truncated };
    const mark = notice.interrupted ? INTERRUPTED_MARK : CUT_MARK;
    show(mark);
    if (callbackError !== null) throw (callbackError as { error: unknown }).error;
    return {
      text: outcome.text + mark,
      notice: truncated === null ? notice.text : `${notice.text} ${truncated}`,
    };
  }
}

/** Below this share of the estimate, a server's reported prompt tokens suggest it cut the prompt. */
const TRUNCATION_RATIO = 0.5;

/**
 * Issue 19 item 9: a server whose context window is smaller than the prompt
 * silently drops the prompt's start (the rules). When it reports far fewer
 * prompt tokens than the prompt holds, say so, with what to do.
 */
export function truncationWarning(
  usage: ReportedUsage | null,
  messages: readonly { content: string }[],
): string | null {
  const reported = usage?.prompt_tokens;
  if (typeof reported !== "number" || !Number.isFinite(reported) || reported <= 0) return null;
  const estimate = estimateTokens(messagesText(messages));
  if (estimate < 1_000 || reported >= estimate * TRUNCATION_RATIO) return null;
  return `The server counted ${reported} prompt tokens for a prompt of about ${estimate}: it probably cut the prompt to fit its context window. Set --context-tokens (TALEFORGE_CONTEXT_TOKENS) to the server's window.`;
}

/** A refusal's text for a message: quoted, one line, capped; the content filter when there is none. */
export function quoted(text: string, apiKey: string | undefined): string {
  const line = oneLine(text, apiKey, 160);
  return line === "" ? "(the content filter stopped the answer)." : `"${line}"`;
}

/** Which limit was hit or what broke, in words for the log; null for a story that ended by itself. */
function noticeOf(
  stop: Stop | null,
  finish: string | null,
  chars: number,
  limits: NarrationLimits,
  transport: Transport,
): { text: string; interrupted: boolean } | null {
  const after = `after ${chars.toLocaleString("en-US")} characters`;
  if (stop === null) {
    if (finish !== "length") return null;
    return {
      text: `The story was cut ${after}: the model reached the narration token limit of ${limits.maxTokens} (narrationMaxTokens).`,
      interrupted: false,
    };
  }
  switch (stop.type) {
    case "chars":
      return {
        text: `The story was cut at the narration length limit of ${limits.maxChars.toLocaleString("en-US")} characters (narrationMaxChars).`,
        interrupted: false,
      };
    case "time":
      return {
        text: `The story was cut ${after}: it streamed longer than the narration streaming limit of ${seconds(limits.maxStreamMs)} (narrationMaxStreamMs).`,
        interrupted: false,
      };
    case "silence":
      return {
        text: `The story was interrupted ${after}: the server at ${transport.baseUrl} sent nothing for ${seconds(transport.timeoutMs)} (--timeout). The text shown was kept.`,
        interrupted: true,
      };
    case "unfinished":
      return {
        text: `The story was interrupted: the server at ${transport.baseUrl} closed the stream ${after} without a finish_reason. The text shown was kept.`,
        interrupted: true,
      };
    case "broke":
      return {
        text: `The story was interrupted: the stream from ${transport.baseUrl} broke ${after} (${describeBreak(stop.failure, transport)}). The text shown was kept.`,
        interrupted: true,
      };
  }
}

function describeBreak(failure: Failure, transport: Transport): string {
  switch (failure.type) {
    case "status":
      return `the server sent an error: ${oneLine(failure.message, transport.apiKey, 120) || failure.status}`;
    case "connection":
      return "the server closed the connection";
    case "timeout":
      return "it timed out";
    case "bad-response":
      return oneLine(failure.message, transport.apiKey, 120);
    default:
      return failure.type;
  }
}

/**
 * Passes streamed story text on without its leading and trailing whitespace:
 * whitespace at the end of what has arrived is held back until more text
 * follows, so the chunks shown add up to exactly the trimmed story.
 */
class TrimmedStory {
  private started = false;
  private held = "";
  private shown = "";

  constructor(private readonly emit: (text: string) => void) {}

  push(text: string): void {
    if (text === "") return;
    let next = this.held + text;
    if (!this.started) {
      next = next.trimStart();
      if (next === "") return;
      this.started = true;
    }
    const body = next.trimEnd();
    this.held = next.slice(body.length);
    if (body === "") return;
    this.shown += body;
    this.emit(body);
  }

  text(): string {
    return this.shown;
  }
}
