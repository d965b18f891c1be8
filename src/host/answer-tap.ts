import type {
  AiPorts,
  IntentAnswer,
  IntentRequest,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
  SummaryRequest,
} from "../engine/ports.ts";
import type { AiAnswer } from "./history.ts";

/**
 * The AI as a game's session sees it (issue 33): every answer of a step is
 * written to the step's tape, in the order the calls were made, so that the
 * history keeps it; and a step can be played again from a tape instead of
 * the AI (`replayFrom`), which answers each call with the recorded answer of
 * that kind, in order.
 */
export class AnswerTap implements AiPorts {
  private tape: AiAnswer[] = [];
  private replay: Map<AiAnswer["call"], AiAnswer[]> | null = null;
  /** Embedding vectors by their JSON: the same texts come back every turn, and one copy is kept. */
  private readonly vectors = new Map<string, number[]>();

  constructor(private readonly live: AiPorts) {}

  /** Starts a step's tape; the answers of its calls go to it. */
  begin(): AiAnswer[] {
    this.tape = [];
    this.replay = null;
    return this.tape;
  }

  /** The next step answers from `answers` instead of the AI. */
  replayFrom(answers: readonly AiAnswer[]): void {
    const queues = new Map<AiAnswer["call"], AiAnswer[]>();
    for (const answer of answers) {
      const queue = queues.get(answer.call);
      if (queue) queue.push(answer);
      else queues.set(answer.call, [answer]);
    }
    this.tape = [];
    this.replay = queues;
  }

  /** Back to the live AI. */
  end(): void {
    this.replay = null;
  }

  classify(request: IntentRequest, signal?: AbortSignal): Promise<IntentAnswer> {
    return this.call("classify", () => this.live.classify(request, signal));
  }

  narrate(
    request: NarrationRequest,
    onChunk?: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<NarrationAnswer> {
    const chunks: string[] = [];
    return this.call(
      "narrate",
      () =>
        this.live.narrate(
          request,
          (text) => {
            chunks.push(text);
            onChunk?.(text);
          },
          signal,
        ),
      chunks,
      onChunk,
    );
  }

  judge(request: JudgeRequest, signal?: AbortSignal): Promise<JudgeVerdict[]> {
    return this.call("judge", () => this.live.judge(request, signal));
  }

  // Optional ports stay absent when the AI has none: the engine asks `typeof ai.summarise`.
  get summarise(): AiPorts["summarise"] {
    const live = this.live.summarise;
    if (typeof live !== "function" && !this.replay?.has("summarise")) return undefined;
    return (request: SummaryRequest, signal?: AbortSignal) =>
      this.call("summarise", () => live!.call(this.live, request, signal));
  }

  get embed(): AiPorts["embed"] {
    const live = this.live.embed;
    if (typeof live !== "function" && !this.replay?.has("embed")) return undefined;
    return (texts: string[], signal?: AbortSignal) =>
      this.call("embed", () => live!.call(this.live, texts, signal));
  }

  /** An embedding answer kept with one copy of each distinct vector. */
  private intern(answer: unknown): unknown {
    if (!Array.isArray(answer)) return JSON.parse(JSON.stringify(answer ?? null));
    return answer.map((vector) => {
      const copy = JSON.parse(JSON.stringify(vector)) as number[];
      const key = JSON.stringify(copy);
      const known = this.vectors.get(key);
      if (known) return known;
      this.vectors.set(key, copy);
      return copy;
    });
  }

  private async call<T>(
    call: AiAnswer["call"],
    run: () => Promise<T>,
    chunks?: string[],
    onChunk?: (text: string) => void,
  ): Promise<T> {
    // The entry takes its place when the call is made, so the tape's order does not depend on which answer came first.
    const entry: AiAnswer = { call, answer: null };
    this.tape.push(entry);
    if (this.replay !== null) {
      const recorded = this.replay.get(call)?.shift();
      if (recorded === undefined) throw new Error(`the recorded step holds no further ${call} answer`);
      for (const chunk of recorded.chunks ?? []) onChunk?.(chunk);
      Object.assign(entry, recorded);
      if (recorded.error !== undefined) throw new Error(recorded.error);
      return structuredClone(recorded.answer) as T;
    }
    try {
      const answer = await run();
      entry.answer =
        call === "embed"
          ? this.intern(answer)
          : answer === undefined
            ? null
            : JSON.parse(JSON.stringify(answer));
      if (chunks && chunks.length > 0) entry.chunks = chunks;
      return answer;
    } catch (error) {
      entry.error = (error as Error)?.message ?? String(error);
      throw error;
    }
  }
}
