import OpenAI from "openai";
import type { CallContext, CallName } from "./errors.ts";
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
  };
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
    accepts: { responseFormat: "json_schema", streamOptions: true },
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
