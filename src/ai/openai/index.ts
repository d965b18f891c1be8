import type { IntentRequest, JudgeRequest, NarrationRequest, SummaryRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { IntentAnswerSchema, JudgeAnswerSchema, SummaryAnswerSchema } from "../answers.ts";
import { httpUrl } from "../config.ts";
import { AiError, type AiMessageId } from "../errors.ts";
import { loreQuery, selectLore } from "../lore.ts";
import {
  budgetsFor,
  intentPrompt,
  judgePrompt,
  type LoreEntry,
  narrationPrompt,
  PROMPT_BUDGETS,
  type PromptBudgets,
  promptChars,
  summaryPrompt,
} from "../prompts/index.ts";
import type { Provider } from "../provider.ts";
import { toIntentAnswer, toJudgeVerdicts } from "./answers.ts";
import { embedTexts } from "./embeddings.ts";
import { checkLimits, type LimitOptions, type Limits, samplingRecord } from "./limits.ts";
import { PaidAnswers } from "./memo.ts";
import { streamNarration } from "./narration.ts";
import { DEFAULT_MAX_RETRIES, type RetryPolicy, retryPolicy } from "./retry.ts";
import { guard } from "./send.ts";
import { SettledMemory, type SettledParts } from "./settled.ts";
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
  /**
   * The server's context window in tokens: prompt budgets are derived from it,
   * minus the answer's token limit (issue 19 item 9). Left out: the built-in
   * budgets (about 5,000 tokens of narration prompt), fit for 8k windows and up.
   */
  contextTokens?: number;
}

/** The provider's options with the token limits and sampling of limits.ts. */
export type OpenAiProviderOptions = OpenAiOptions & LimitOptions;

const DEFAULT_TIMEOUT_MS = 60_000;

const INTENT = structuredSpec("intent", IntentAnswerSchema);
const JUDGE = structuredSpec("judge", JudgeAnswerSchema);
const SUMMARY = structuredSpec("summary", SummaryAnswerSchema);

/** The smallest context window accepted: below it no prompt fits with its answer. */
export const MIN_CONTEXT_TOKENS = 2_048;

/** The provider, with its sampling record always present. */
export interface OpenAiProvider extends Provider {
  sampling(): Record<string, number | null>;
}

/**
 * The AI ports over any OpenAI-compatible chat-completions server (OpenAI,
 * Ollama, llama.cpp, vLLM, LM Studio, OpenRouter): structured intent and
 * judge answers, streamed narration carrying the event verdict and summary,
 * optional embeddings. Every failure is an AiError with a one-line message.
 */
export function createOpenAiProvider(world: World, options: OpenAiProviderOptions): OpenAiProvider {
  const settings = checkOptions(options);
  const limits = settings.limits;
  const budgets = settings.budgets;
  // Answers already paid for (intent, judge): a turn replayed after a failure does not ask again (item 5).
  const paid = new PaidAnswers();
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

  const structured = (request: { seed?: number; game?: string }) => ({
    seed: request.seed,
    game: request.game,
    maxTokens: limits.structuredMaxTokens,
  });

  // What the narration prompt's stable part lists, per game (settled.ts).
  const settled = new SettledMemory(world);

  const provider: OpenAiProvider = {
    name: "openai",
    model: settings.model,

    classify(request: IntentRequest, signal?: AbortSignal) {
      const active = within(signal);
      return guard("intent", active, () =>
        paid.answer("intent", request, async () =>
          toIntentAnswer(
            await structuredAnswer(
              transport,
              INTENT,
              intentPrompt(world, request, budgets.intent),
              active,
              structured(request),
            ),
            request,
          ),
        ),
      );
    },

    narrate(request: NarrationRequest, onChunk?: (text: string) => void, signal?: AbortSignal) {
      const active = within(signal);
      return guard("narration", active, async () => {
        const options = {
          gameMode: settings.gameMode,
          lore: await lore(request, active),
          budget: request.opening ? budgets.opening : budgets.narration,
        };
        const size = (parts: SettledParts) =>
          promptChars(narrationPrompt(world, request, { ...options, ...parts }));
        const messages = narrationPrompt(world, request, {
          ...options,
          ...settled.for(request, options.lore, { budget: options.budget, size }),
        });
        return streamNarration(transport, messages, onChunk, active, {
          limits: limits.narration,
          seed: request.seed,
          game: request.game,
        });
      });
    },

    judge(request: JudgeRequest, signal?: AbortSignal) {
      const active = within(signal);
      if (request.questions.length === 0) return guard("judge", active, async () => []);
      return guard("judge", active, () =>
        paid.answer("judge", request, async () =>
          toJudgeVerdicts(
            await structuredAnswer(
              transport,
              JUDGE,
              judgePrompt(world, request, budgets.judge),
              active,
              structured(request),
            ),
            request,
          ),
        ),
      );
    },

    summarise(request: SummaryRequest, signal?: AbortSignal) {
      const active = within(signal);
      return guard("summary", active, async () => {
        const answer = await structuredAnswer(
          transport,
          SUMMARY,
          summaryPrompt(world, request, budgets.summary),
          active,
          { ...structured(request), maxTokens: Math.max(limits.structuredMaxTokens, 1_000) },
        );
        return { summary: answer.summary };
      });
    },

    usage: () => transport.usage.snapshot(),
    lastRequests: () => transport.sent.list(),
    sampling: () => ({ ...samplingRecord(limits), contextTokens: settings.contextTokens ?? null }),

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
  limits: Limits;
  contextTokens: number | undefined;
  budgets: PromptBudgets;
}

/** The options checked (AiError "config" naming the option) and defaulted. */
function checkOptions(options: OpenAiProviderOptions): Settings {
  const bad = (messageId: AiMessageId<"config">, data: Record<string, string | number> = {}): never => {
    throw AiError.of("config", messageId, data);
  };
  if (options === null || typeof options !== "object") bad("no-options");
  const baseUrl = typeof options.baseUrl === "string" ? options.baseUrl.trim().replace(/\/+$/, "") : "";
  if (httpUrl(baseUrl) === null) bad("option-base-url", { value: String(JSON.stringify(options.baseUrl)) });
  const model = typeof options.model === "string" ? options.model.trim() : "";
  if (model === "") bad("no-model");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    bad("option-timeout", { value: String(options.timeoutMs) });
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    bad("option-count", { name: "maxRetries", value: String(options.maxRetries) });
  const embeddingModel = options.embeddingModel?.trim() || undefined;
  const apiKey = options.apiKey?.trim() || undefined;
  const loreLimit = options.loreLimit;
  if (loreLimit !== undefined && (!Number.isInteger(loreLimit) || loreLimit < 0))
    bad("option-count", { name: "loreLimit", value: String(loreLimit) });
  // Node's timers overflow above 2^31 - 1 ms: every request would fail at once (issue 15 item 7).
  if (timeoutMs > 2_147_483_647) bad("option-timeout-over", { seconds: Math.round(timeoutMs / 1000) });
  const limits = checkLimits(options);
  const contextTokens = options.contextTokens;
  if (
    contextTokens !== undefined &&
    (!Number.isInteger(contextTokens) || contextTokens < MIN_CONTEXT_TOKENS || contextTokens > 10_000_000)
  )
    bad("option-context-tokens", { min: MIN_CONTEXT_TOKENS, value: String(contextTokens) });
  if (contextTokens !== undefined && contextTokens <= limits.narration.maxTokens + 1_000)
    bad("option-context-room", { tokens: contextTokens, answer: limits.narration.maxTokens });
  const budgets =
    contextTokens === undefined
      ? PROMPT_BUDGETS
      : budgetsFor(contextTokens, {
          narration: limits.narration.maxTokens,
          structured: limits.structuredMaxTokens,
        });
  return {
    baseUrl,
    model,
    apiKey,
    embeddingModel,
    timeoutMs,
    maxRetries,
    gameMode: options.gameMode ?? null,
    loreLimit,
    limits,
    contextTokens,
    budgets,
  };
}
