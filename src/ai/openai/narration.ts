import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { NarrationAnswer } from "../../engine/ports.ts";
import { AiError } from "../errors.ts";
import type { ChatMessage } from "../prompts/index.ts";
import { parseTrailer, TrailerSplitter } from "../trailer.ts";
import { describeFailure, rejectsParameter } from "./errors.ts";
import { send } from "./send.ts";
import { contextOf, type Transport } from "./transport.ts";
import { messagesText, type ReportedUsage } from "./usage.ts";

/** What the narration request asked for besides the story. */
export interface NarrationWants {
  eventVerdict: boolean;
  summary: boolean;
}

const STREAM_OPTIONS = /stream_options|include_usage/i;

/**
 * Streams a narration: story text reaches `onChunk` as it arrives, the
 * trailer (event verdict, summary) is split off and never shown. A failed
 * attempt is retried only while nothing has been shown; after that the
 * failure is final (the player cannot unsee text).
 */
export async function streamNarration(
  transport: Transport,
  messages: ChatMessage[],
  wants: NarrationWants,
  onChunk: ((text: string) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<NarrationAnswer> {
  const context = contextOf(transport, "narration");
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
    const withUsage = transport.accepts.streamOptions;
    const outcome = await send(
      transport,
      context,
      signal,
      async (attempt) => {
        let stream: AsyncIterable<ChatCompletionChunk>;
        try {
          stream = await transport.client.chat.completions.create(
            {
              model: transport.model,
              messages,
              stream: true,
              ...(withUsage ? { stream_options: { include_usage: true } } : {}),
            },
            { signal: attempt.signal },
          );
        } catch (error) {
          if (withUsage && rejectsParameter(describeFailure(error), STREAM_OPTIONS))
            return { rejected: true as const };
          throw error;
        }
        const splitter = new TrailerSplitter();
        const story = new TrimmedStory((text) => {
          // A chunk already read when the call was cancelled is not shown.
          if (!attempt.signal.aborted) show(text);
        });
        let raw = "";
        let usage: ReportedUsage | null = null;
        for await (const chunk of stream) {
          attempt.alive();
          if (chunk.usage) usage = chunk.usage;
          const delta = chunk.choices?.[0]?.delta?.content;
          if (typeof delta !== "string" || delta === "") continue;
          raw += delta;
          story.push(splitter.push(delta));
        }
        const end = splitter.end();
        story.push(end.rest);
        return { text: story.text(), trailer: end.trailer, raw, usage };
      },
      () => !shown,
    );
    if ("rejected" in outcome) {
      transport.accepts.streamOptions = false;
      continue;
    }
    if (callbackError !== null) throw (callbackError as { error: unknown }).error;
    transport.usage.add(outcome.usage, { prompt: messagesText(messages), completion: outcome.raw });
    if (outcome.text === "")
      throw new AiError(
        "bad-output",
        `The model "${transport.model}" wrote no story for the narration. Try again, or use a larger or instruction-tuned model.`,
      );
    const answer: NarrationAnswer = { text: outcome.text };
    const trailer = outcome.trailer === null ? {} : parseTrailer(outcome.trailer);
    if (wants.eventVerdict && trailer.eventVerdict) answer.eventVerdict = trailer.eventVerdict;
    if (wants.summary && trailer.summary) answer.summary = trailer.summary;
    return answer;
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
