import OpenAI from "openai";
import { type CallContext, type CallName, type Failure, rejectsParameter } from "./errors.ts";
import type { RetryPolicy } from "./retry.ts";
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
  accepts: {
    /** How structured answers are asked for: json_schema, else json_object, else only the prompt. */
    responseFormat: "json_schema" | "json_object" | "prompt";
    /** Whether `stream_options: {include_usage: true}` may be sent. */
    streamOptions: boolean;
    /** Optional parameters (OPTIONAL_PARAMS) this server refused once: never sent again. */
    refused: Set<string>;
  };
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
    accepts: { responseFormat: "json_schema", streamOptions: true, refused: new Set() },
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
