import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { AiError } from "../errors.ts";
import { type RetryClass, retryAfterMs } from "./retry.ts";

/**
 * The one place where what went wrong with a request (SDK errors, network
 * errors, timeouts) becomes an AiError. `describeFailure` turns anything
 * thrown into plain data, the retry loop decides on that data, and
 * `toAiError` words the final one-line message. The API key never appears in
 * a message: server text is redacted and auth errors do not quote it.
 */
export type Failure =
  | { type: "status"; status: number; message: string; code: string | null; retryAfterMs: number | null }
  | { type: "connection"; code: string | null; message: string }
  | { type: "timeout" }
  | { type: "aborted" }
  /** The server answered 200 with something that is not what the protocol says. */
  | { type: "bad-response"; message: string }
  /** A stream that ended without a finish_reason before any text: a failed call (issue 15 item 5). */
  | { type: "stream-cut"; chars: number };

export type CallName = "intent" | "narration" | "judge" | "summary" | "embeddings";

export interface CallContext {
  call: CallName;
  baseUrl: string;
  /** The model of this call (the embedding model for embeddings). */
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** Thrown inside an attempt when a 200 answer does not follow the protocol (no choices, not JSON). */
export class BadResponse extends Error {}

/** Thrown inside a streamed attempt that ended without a finish_reason and without text. */
export class StreamCut extends Error {
  constructor(readonly chars: number) {
    super(`the stream ended after ${chars} characters without a finish_reason`);
  }
}

export function describeFailure(error: unknown): Failure {
  if (error instanceof BadResponse) return { type: "bad-response", message: error.message };
  if (error instanceof StreamCut) return { type: "stream-cut", chars: error.chars };
  if (error instanceof APIUserAbortError) return { type: "aborted" };
  if (error instanceof APIConnectionTimeoutError) return { type: "timeout" };
  if (error instanceof APIError && typeof error.status === "number") {
    return {
      type: "status",
      status: error.status,
      message: serverMessage(error),
      code: typeof error.code === "string" ? error.code : null,
      retryAfterMs: retryAfterMs(error.headers),
    };
  }
  if (error instanceof APIConnectionError) {
    const code = errorCode(error.cause);
    // undici's own limits (5 minutes by default) can only be hit with a timeout set above them.
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return { type: "timeout" };
    return { type: "connection", code, message: causeMessage(error) };
  }
  if (error instanceof APIError) {
    // No status: an error event inside a stream. The server failed mid-answer.
    return { type: "status", status: 500, message: serverMessage(error), code: null, retryAfterMs: null };
  }
  if (error instanceof SyntaxError) return { type: "bad-response", message: "its answer is not valid JSON" };
  if (isAbort(error)) return { type: "aborted" };
  const code = errorCode(error);
  if (code !== null) return { type: "connection", code, message: causeMessage(error) };
  return { type: "bad-response", message: error instanceof Error ? error.message : String(error) };
}

const RETRY_STATUSES = new Set([408, 409, 429]);
const TRANSIENT_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ETIMEDOUT"]);

/** Whether a failure may go away by itself (see retry.ts for the policy). */
export function retryClass(failure: Failure): RetryClass {
  switch (failure.type) {
    case "status":
      if (failure.code === "insufficient_quota") return "never";
      return RETRY_STATUSES.has(failure.status) || failure.status >= 500 ? "backoff" : "never";
    case "connection":
      return failure.code !== null && TRANSIENT_CODES.has(failure.code) ? "backoff" : "never";
    case "timeout":
      return "once";
    case "stream-cut":
      return "backoff";
    default:
      return "never";
  }
}

const MODEL_MISSING =
  /model[^.]*\b(not found|does not exist|doesn't exist|not exist|unknown|not available|not loaded|no such|not a valid)|(unknown|invalid|no such) model|model_not_found|not a valid model/i;

/** The one-line AiError for the last failure of a call that made `attempts` requests. */
export function toAiError(
  failure: Failure,
  context: CallContext,
  attempts: number,
  cause?: unknown,
): AiError {
  const at = `The server at ${context.baseUrl}`;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  const options = cause === undefined ? undefined : { cause };
  const said = (text: string) => (text ? `: ${oneLine(text, context.apiKey)}` : "");
  switch (failure.type) {
    case "aborted":
      return abortedError(context.call);
    case "timeout":
      return AiError.of(
        "timeout",
        "timeout",
        { at, call: context.call, seconds: seconds(context.timeoutMs), tries },
        options,
      );
    case "connection":
      return AiError.of(
        "unreachable",
        "unreachable",
        { baseUrl: context.baseUrl, reason: connectionReason(failure) },
        options,
      );
    case "stream-cut":
      return AiError.of(
        "server",
        "stream-cut",
        { at, call: context.call, chars: failure.chars, tries },
        options,
      );
    case "bad-response":
      return AiError.of(
        "server",
        "bad-response",
        { at, reason: oneLine(failure.message, context.apiKey) },
        options,
      );
    case "status":
      break;
  }
  const { status, message, code } = failure;
  const embeddings = context.call === "embeddings";
  const modelFlag = embeddings ? "--embedding-model" : "--model";
  if (status === 401) return AiError.of("auth", context.apiKey ? "refused-key" : "no-key", { at }, options);
  if (status === 403)
    return AiError.of("auth", "forbidden", { at, said: said(message), model: context.model }, options);
  const modelMissing =
    code === "model_not_found" ||
    MODEL_MISSING.test(message) ||
    (status === 404 && /\bmodel\b/i.test(message));
  if ((status === 404 || status === 400) && modelMissing) {
    const pull = isOllama(context.baseUrl, message) ? `, or run \`ollama pull ${context.model}\`` : "";
    return AiError.of(
      "unknown-model",
      "unknown-model",
      { at, which: embeddings ? "embedding " : "", model: context.model, status, flag: modelFlag, pull },
      options,
    );
  }
  if (status === 404)
    return AiError.of(
      "config",
      "no-endpoint",
      { at, endpoint: embeddings ? "embeddings" : "chat completions", said: said(message) },
      options,
    );
  if (status === 429)
    return AiError.of(
      "rate-limited",
      code === "insufficient_quota" ? "quota" : "rate-limited",
      { at, tries, said: said(message) },
      options,
    );
  if (status >= 500)
    return AiError.of(
      "server",
      "failed",
      { at, status, call: context.call, tries, said: said(message) },
      options,
    );
  return AiError.of("server", "rejected", { at, call: context.call, status, said: said(message) }, options);
}

export function abortedError(call: CallName): AiError {
  return AiError.of("aborted", "request", { call });
}

/** Server text fit for one line: whitespace collapsed, the key redacted, at most `max` characters. */
export function oneLine(text: string, apiKey?: string, max = 200): string {
  let line = text.replace(/\s+/g, " ").trim();
  if (apiKey && apiKey.length >= 4) line = line.split(apiKey).join("[key]");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Whether a request was refused because of one of its parameters (e.g. response_format), judged from its text. */
export function rejectsParameter(failure: Failure, pattern: RegExp): boolean {
  if (failure.type !== "status") return false;
  const { status, message } = failure;
  return (status === 400 || status === 422 || status === 500 || status === 501) && pattern.test(message);
}

function serverMessage(error: APIError): string {
  const body = error.error as unknown;
  if (typeof body === "string") return body;
  if (body !== null && typeof body === "object") {
    const message = (body as { message?: unknown }).message;
    if (typeof message === "string") return message;
    return JSON.stringify(message ?? body);
  }
  return error.message.replace(/^\d{3}\s*/, "").replace(/^status code \(no body\)$/, "");
}

function isOllama(baseUrl: string, message: string): boolean {
  return /:11434\b/.test(baseUrl) || /ollama|try pulling/i.test(message);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** The first `code` (ECONNREFUSED, ENOTFOUND, ...) along an error's causes. */
function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const found = errorCode(inner[0]);
      if (found !== null) return found;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function causeMessage(error: unknown): string {
  let current: unknown = error;
  let message = "";
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

function connectionReason(failure: Extract<Failure, { type: "connection" }>): string {
  switch (failure.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
      return "host not found";
    case "EAI_AGAIN":
      return "the host name could not be looked up";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
    case "EPIPE":
      return "the connection was dropped";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "no route to the host";
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return "connecting timed out";
    default:
      if (failure.code !== null && /CERT|TLS|SSL/.test(failure.code))
        return `TLS certificate problem: ${failure.code}`;
      return failure.code ?? (oneLine(failure.message) || "network error");
  }
}

export function seconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
