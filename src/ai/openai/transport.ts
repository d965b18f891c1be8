import OpenAI from "openai";
import { type CallContext, type CallName, type Failure, rejectsParameter } from "./errors.ts";
import type { RetryPolicy } from "./retry.ts";
import { SentRequests } from "./sent.ts";
import { UsageCounter } from "./usage.ts";

/** Sent as the key to servers that need none (Ollama, llama.cpp, LM Studio): the SDK insists on one. */
const PLACEHOLDER_KEY = "not-needed";

/**
 * What every call of one provider shares: the SDK client (its retries off:
 * send.ts retries), the settings, the usage count, and what the server was
 * found to accept. What it accepts is learnt once and kept for the provider's
 * life, so a server that rejects `json_schema` costs one extra request, not
 * one per call.
 */
export interface Transport {
  client: OpenAI;
  baseUrl: string;
  model: string;
  embeddingModel: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  usage: UsageCounter;
  /** The last request of each kind, as sent (--show-prompt). */
  sent: SentRequests;
  accepts: {
    /** How structured answers are asked for: json_schema, else json_object, else only the prompt. */
    responseFormat: "json_schema" | "json_object" | "prompt";
    /** Whether `stream_options: {include_usage: true}` may be sent. */
    streamOptions: boolean;
    /** Optional parameters (OPTIONAL_PARAMS) this server refused once: never sent again. */
    refused: Set<string>;
    /**
     * How the answer's token limit is sent: `max_tokens`, `max_completion_tokens` (reasoning
     * models refuse `max_tokens`), or not at all (a server that refuses both). Learnt from the
     * server's error once and remembered per endpoint (TOKEN_PARAMS), not per provider.
     */
    tokenParam: TokenParam;
  };
}

export type TokenParam = "max_tokens" | "max_completion_tokens" | "none";

/**
 * The token parameter each endpoint (base URL and model) was found to take, for the process's
 * life: a game started again, or a second provider on the same server, does not pay the failed
 * request again.
 */
const TOKEN_PARAMS = new Map<string, TokenParam>();
const TOKEN_PARAMS_MAX = 1_000;

function endpointKey(baseUrl: string, model: string): string {
  return `${baseUrl}\u0000${model}`;
}

/** The answer's token limit as this server takes it: `{max_tokens: n}`, `{max_completion_tokens: n}` or nothing. */
export function tokenLimit(transport: Transport, tokens: number): Record<string, number> {
  const param = transport.accepts.tokenParam;
  return param === "none" ? {} : { [param]: tokens };
}

/** The parameter a server's refusal names: "the parameter is unsupported", never "the value is too large". */
const REFUSED =
  "(?:unsupported|not supported|unrecognized|unrecognised|unknown|not allowed|not permitted|extra|invalid parameter)";

/**
 * When `failure` says the server does not take the token parameter just sent, moves to the next
 * one (max_tokens, then max_completion_tokens, then none), remembers it for the endpoint and
 * returns true; otherwise false. OpenAI's reasoning models answer 400 "Unsupported parameter:
 * 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
 */
export function learnTokenParam(transport: Transport, failure: Failure): boolean {
  const param = transport.accepts.tokenParam;
  if (param === "none") return false;
  const name = param === "max_tokens" ? "max_tokens" : "max_completion_tokens";
  const pattern = new RegExp(
    `${REFUSED}[^.]{0,60}\\b${name}\\b|\\b${name}\\b[^.]{0,80}(?:${REFUSED.slice(3, -1)}|max_completion_tokens)`,
    "i",
  );
  if (!rejectsParameter(failure, pattern)) return false;
  const next: TokenParam = param === "max_tokens" ? "max_completion_tokens" : "none";
  transport.accepts.tokenParam = next;
  if (TOKEN_PARAMS.size >= TOKEN_PARAMS_MAX) TOKEN_PARAMS.clear();
  TOKEN_PARAMS.set(endpointKey(transport.baseUrl, transport.model), next);
  return true;
}

/**
 * Parameters a request can do without: a server that refuses one by name
 * (400 "unrecognized argument prompt_cache_key") gets the request again
 * without it, and never sees it again.
 */
export const OPTIONAL_PARAMS = [
  "prompt_cache_key",
  "seed",
  "top_p",
  "temperature",
  "stream_options",
] as const;

/** `params` without the optional ones the server refused. */
export function optionalParams(
  transport: Transport,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || transport.accepts.refused.has(key)) continue;
    out[key] = value;
  }
  return out;
}

/** The optional parameter a rejection names (and that was sent), or null. */
export function refusedParam(
  failure: Failure,
  sent: Record<string, unknown>,
): (typeof OPTIONAL_PARAMS)[number] | null {
  for (const name of OPTIONAL_PARAMS) {
    if (!(name in sent)) continue;
    const pattern = name === "stream_options" ? /stream_options|include_usage/i : new RegExp(name, "i");
    if (rejectsParameter(failure, pattern)) return name;
  }
  return null;
}

export function makeTransport(settings: {
  baseUrl: string;
  model: string;
  embeddingModel: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
}): Transport {
  const client = new OpenAI({
    baseURL: settings.baseUrl,
    apiKey: settings.apiKey ?? PLACEHOLDER_KEY,
    maxRetries: 0,
    // send.ts times every attempt itself (including the body); this only backs it up.
    timeout: settings.timeoutMs + 1_000,
    // No console output at run time: every failure reaches the caller as an AiError.
    logLevel: "off",
  });
  return {
    client,
    ...settings,
    usage: new UsageCounter(),
    sent: new SentRequests(`${settings.baseUrl}/chat/completions`),
    accepts: {
      responseFormat: "json_schema",
      streamOptions: true,
      refused: new Set(),
      tokenParam: TOKEN_PARAMS.get(endpointKey(settings.baseUrl, settings.model)) ?? "max_tokens",
    },
  };
}

export function contextOf(transport: Transport, call: CallName): CallContext {
  return {
    call,
    baseUrl: transport.baseUrl,
    model: call === "embeddings" ? (transport.embeddingModel ?? transport.model) : transport.model,
    apiKey: transport.apiKey,
    timeoutMs: transport.timeoutMs,
  };
}
