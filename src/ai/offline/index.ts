import type {
  IntentAnswer,
  IntentRequest,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
} from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { AiError, isAiError } from "../errors.ts";
import { emptyUsage, estimateTokens, type Provider } from "../provider.ts";
import { embedText } from "./embed.ts";
import { type WorldFacts, worldFacts } from "./facts.ts";
import { classifyIntent, classifyParty } from "./intent.ts";
import { judgeAll } from "./judge.ts";
import { NameIndex } from "./names.ts";
import { compose } from "./narration.ts";
import { intentInput, judgeInput, list, narrationInput, str } from "./request.ts";
import { foldSummary } from "./summary.ts";
import { sentences } from "./text.ts";

export { EMBED_DIMENSION } from "./embed.ts";
export { EVENT_COVERAGE } from "./event.ts";
export { JUDGE_THRESHOLD } from "./judge.ts";
export { SUMMARY_LIMIT } from "./summary.ts";

/**
 * The offline provider (the default; needs nothing): deterministic,
 * explainable answers from rules over the request and the world's public
 * names. The same request always gets the same answer: no clock, no
 * Math.random, no network. docs/offline.md explains every decision.
 *
 * Usage: every call counts; promptTokens stay 0 (no prompt is sent
 * anywhere) and completionTokens are estimateTokens() of what the provider
 * produced (the story and summary text, or the JSON of a classification,
 * verdicts or vectors' count), so hosts can show figures of the same kind as
 * for a model.
 */
/** The index of each world's location names, made once per world's facts (as the facts are: facts.ts). */
const locationIndexes = new WeakMap<WorldFacts, NameIndex>();

function locationIndex(facts: WorldFacts): NameIndex {
  let index = locationIndexes.get(facts);
  if (index === undefined) {
    index = new NameIndex(
      facts.locationNames.map((name) => ({ name, kind: "location" })),
      "head",
    );
    locationIndexes.set(facts, index);
  }
  return index;
}

export function createOfflineProvider(world: World, _options: { gameMode?: string | null } = {}): Provider {
  // The game mode is accepted like any provider's, but no offline text depends on it: the one rule
  // that did (few "Next:" hints) left the narration with the next step (issue 14 item 5).
  const facts = worldFacts(world);
  const locations = locationIndex(facts);
  const usage = emptyUsage();
  const count = (produced: string) => {
    usage.calls += 1;
    usage.completionTokens += estimateTokens(produced);
  };
  const classifyText = (text: string, npcs: string[]) =>
    classifyIntent(
      {
        tick: 0,
        text,
        places: [],
        position: { realm: "", region: "", location: "", area: "" },
        npcsPresent: npcs,
      },
      facts,
    ).intent;

  return {
    name: "offline",
    model: "offline",

    async classify(request: IntentRequest, signal?: AbortSignal): Promise<IntentAnswer> {
      return guard("classify", signal, () => {
        const answer = classifyParty(intentInput(request), facts);
        count(JSON.stringify(answer));
        return answer;
      });
    },

    async narrate(
      request: NarrationRequest,
      onChunk?: (text: string) => void,
      signal?: AbortSignal,
    ): Promise<NarrationAnswer> {
      const answer = guard("narrate", signal, () => {
        const input = narrationInput(request);
        const composed = compose(input, { facts, locations, classify: classifyText });
        const result: NarrationAnswer = { text: composed.text };
        if (composed.eventVerdict !== undefined) result.eventVerdict = composed.eventVerdict;
        if (composed.notice !== undefined) result.notice = composed.notice;
        if (composed.segments !== undefined) result.segments = composed.segments;
        if (input.summarise !== null) {
          const summary = foldSummary(input.summary, input.summarise);
          if (summary !== "") result.summary = summary;
        }
        return result;
      });
      // Streams by paragraph and sentence; the chunks concatenate to the text exactly.
      for (const chunk of chunksOf(answer.text)) {
        if (signal?.aborted) throw aborted();
        try {
          onChunk?.(chunk);
        } catch (error) {
          throw AiError.of(
            "bad-output",
            "chunk-handler",
            { reason: String((error as Error)?.message ?? error) },
            { cause: error },
          );
        }
        await Promise.resolve();
      }
      if (signal?.aborted) throw aborted();
      count(answer.text + (answer.summary ?? ""));
      return answer;
    },

    async judge(request: JudgeRequest, signal?: AbortSignal): Promise<JudgeVerdict[]> {
      return guard("judge", signal, () => {
        const verdicts = judgeAll(judgeInput(request));
        count(JSON.stringify(verdicts));
        return verdicts;
      });
    },

    async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
      return guard("embed", signal, () => {
        const vectors = list(texts, Number.MAX_SAFE_INTEGER).map(embedOf);
        count(String(vectors.length));
        return vectors;
      });
    },

    usage: () => ({ ...usage }),
    async close() {},
  };
}

function aborted(): AiError {
  return AiError.of("aborted", "call");
}

/** One text's vector: a module function, so that `embed` makes no closure per call. */
function embedOf(text: unknown): number[] {
  return embedText(str(text));
}

/** Runs one answer: cancelled calls throw AiError "aborted"; any other failure becomes an AiError. */
function guard<T>(port: string, signal: AbortSignal | undefined, run: () => T): T {
  if (signal?.aborted) throw aborted();
  try {
    return run();
  } catch (error) {
    if (isAiError(error)) throw error;
    throw AiError.of(
      "bad-output",
      "offline",
      { port, reason: String((error as Error)?.message ?? error) },
      { cause: error },
    );
  }
}

/** Paragraphs, then sentences: each chunk keeps its trailing white space, so the chunks join to the text. */
function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  for (const paragraph of text.split(/(?<=\n\n)/)) {
    const body = paragraph.replace(/\n+$/, "");
    const tail = paragraph.slice(body.length);
    const parts = sentences(body);
    // Re-cut the paragraph at the sentence starts so white space between sentences is kept.
    let from = 0;
    const pieces: string[] = [];
    for (const sentence of parts.slice(1)) {
      const at = body.indexOf(sentence, from + 1);
      if (at <= from) continue;
      pieces.push(body.slice(from, at));
      from = at;
    }
    pieces.push(body.slice(from) + tail);
    chunks.push(...pieces.filter((p) => p !== ""));
  }
  return chunks;
}
