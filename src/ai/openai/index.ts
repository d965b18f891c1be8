import type { IntentRequest, JudgeRequest, NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { IntentAnswerSchema, JudgeAnswerSchema } from "../answers.ts";
import { httpUrl } from "../config.ts";
import { AiError } from "../errors.ts";
import { loreQuery, selectLore } from "../lore.ts";
import { intentPrompt, judgePrompt, type LoreEntry, narrationPrompt } from "../prompts/index.ts";
import type { Provider } from "../provider.ts";
import { toIntentAnswer, toJudgeVerdicts } from "./answers.ts";
import { embedTexts } from "./embeddings.ts";
import { streamNarration } from "./narration.ts";
import { DEFAULT_MAX_RETRIES, type RetryPolicy, retryPolicy } from "./retry.ts";
import { guard } from "./send.ts";
import { structuredAnswer, structuredSpec } from "./structured.ts";
import { makeTransport } from "./transport.ts";

export interface OpenAiOptions {
  /** The server's OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (http or https). */
  baseUrl: string;
  model: string;
  /** Left out for local servers that need none (a placeholder is sent). */
  apiKey?: string;
  /** A model for embeddings; without one the provider has no `embed`. */
  embeddingModel?: string;
  /**
   * Per attempt, in ms (default 60 000). For intent, judge and embeddings it
   * bounds the whole answer; for streamed narration it bounds the wait for
   * the first chunk and every silence between chunks, not the story's length.
   */
  timeoutMs?: number;
  /** More attempts after a 429, a 5xx or a dropped connection (default 3); a timeout is retried once at most. */
  maxRetries?: number;
  /** The game mode whose instructions the narrator follows. */
  gameMode?: string | null;
  /** At most this many lore entries per narration (selectLore's default when left out). */
  loreLimit?: number;
  /** Backoff settings and the sleep between retries (tests make it instant). */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
}

const DEFAULT_TIMEOUT_MS = 60_000;

const INTENT = structuredSpec("intent", IntentAnswerSchema);
const JUDGE = structuredSpec("judge", JudgeAnswerSchema);

/**
 * The AI ports over any OpenAI-compatible chat-completions server (OpenAI,
 * Ollama, llama.cpp, vLLM, LM Studio, OpenRouter): structured intent and
 * judge answers, streamed narration carrying the event verdict and summary,
 * optional embeddings. Every failure is an AiError with a one-line message.
 */
export function createOpenAiProvider(world: World, options: OpenAiOptions): Provider {
  const settings = checkOptions(options);
  const transport = makeTransport({
    baseUrl: settings.baseUrl,
    model: settings.model,
    embeddingModel: settings.embeddingModel,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    retry: retryPolicy({ ...options.retry, maxRetries: settings.maxRetries }),
  });
  // close() cancels whatever is still running; calls after it are refused.
  const lifetime = new AbortController();
  const within = (signal: AbortSignal | undefined) =>
    signal ? AbortSignal.any([signal, lifetime.signal]) : lifetime.signal;
  const hasLore = Object.keys(world.worldLore ?? {}).length > 0;
  let loreEmbeddings = settings.embeddingModel !== undefined;

  const embed = (texts: string[], signal?: AbortSignal): Promise<number[][]> => {
    const model = settings.embeddingModel!;
    const active = within(signal);
    return guard("embeddings", active, () => embedTexts(transport, model, texts, active));
  };

  // One function for the provider's life: selectLore caches the entries' vectors per embed function.
  // It runs under the provider's lifetime only, so vectors still being made when a turn is cancelled
  // are kept for the next turn (the cancelled narration itself settles at once).
  const loreEmbed = (texts: string[]) => embed(texts);
  const lore = async (request: NarrationRequest, signal: AbortSignal): Promise<LoreEntry[]> => {
    if (!hasLore) return [];
    const query = loreQuery(request);
    const limit = settings.loreLimit !== undefined ? { limit: settings.loreLimit } : {};
    if (!loreEmbeddings) return selectLore(world, query, limit);
    try {
      return await selectLore(world, query, { ...limit, embed: loreEmbed });
    } catch (error) {
      if (signal.aborted) throw error;
      // Embeddings that fail once are not asked for lore again: lexical selection is the fallback.
      loreEmbeddings = false;
      return selectLore(world, query, limit);
    }
  };

  const provider: Provider = {
    name: "openai",
    model: settings.model,

    classify(request: IntentRequest, signal?: AbortSignal) {
      const active = within(signal);
      return guard("intent", active, async () =>
        toIntentAnswer(await structuredAnswer(transport, INTENT, intentPrompt(world, request), active)),
      );
    },

    narrate(request: NarrationRequest, onChunk?: (text: string) => void, signal?: AbortSignal) {
      const active = within(signal);
      return guard("narration", active, async () => {
        const messages = narrationPrompt(world, request, {
          gameMode: settings.gameMode,
          lore: await lore(request, active),
        });
        return streamNarration(
          transport,
          messages,
          { eventVerdict: Boolean(request.event), summary: Boolean(request.summarise) },
          onChunk,
          active,
        );
      });
    },

    judge(request: JudgeRequest, signal?: AbortSignal) {
      const active = within(signal);
      if (request.questions.length === 0) return guard("judge", active, async () => []);
      return guard("judge", active, async () =>
        toJudgeVerdicts(
          await structuredAnswer(transport, JUDGE, judgePrompt(world, request), active),
          request,
        ),
      );
    },

    usage: () => transport.usage.snapshot(),

    async close() {
      lifetime.abort();
    },
  };
  if (settings.embeddingModel !== undefined) provider.embed = embed;
  return provider;
}

interface Settings {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  embeddingModel: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  gameMode: string | null;
  loreLimit: number | undefined;
}

/** The options checked (AiError "config" naming the option) and defaulted. */
function checkOptions(options: OpenAiOptions): Settings {
  const bad = (message: string): never => {
    throw new AiError("config", message);
  };
  if (options === null || typeof options !== "object")
    bad("Pass the openai provider's options (baseUrl, model).");
  const baseUrl = typeof options.baseUrl === "string" ? options.baseUrl.trim().replace(/\/+$/, "") : "";
  if (httpUrl(baseUrl) === null)
    bad(
      `The base URL ${JSON.stringify(options.baseUrl)} is not an http(s) URL; e.g. http://127.0.0.1:11434/v1.`,
    );
  const model = typeof options.model === "string" ? options.model.trim() : "";
  if (model === "") bad("The openai provider needs a model; e.g. --model llama3.1 for Ollama.");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    bad(`The timeout must be a number of milliseconds > 0, not ${String(options.timeoutMs)}.`);
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    bad(`maxRetries must be a whole number >= 0, not ${String(options.maxRetries)}.`);
  const embeddingModel = options.embeddingModel?.trim() || undefined;
  const apiKey = options.apiKey?.trim() || undefined;
  const loreLimit = options.loreLimit;
  if (loreLimit !== undefined && (!Number.isInteger(loreLimit) || loreLimit < 0))
    bad(`loreLimit must be a whole number >= 0, not ${String(loreLimit)}.`);
  return {
    baseUrl,
    model,
    apiKey,
    embeddingModel,
    timeoutMs,
    maxRetries,
    gameMode: options.gameMode ?? null,
    loreLimit,
  };
}
