import type { ErrorTable } from "../world/error-table.ts";

/**
 * The short list every provider failure maps to, once, at the boundary
 * (style guide "Providers"): a host shows `message` as one line and may act
 * on `kind` (e.g. wait on `rate-limited`). The engine wraps it as `ai/failed`.
 */
export const AI_ERROR_KINDS = {
  auth: { description: "The server refused the API key." },
  "unknown-model": { description: "The server does not know the model." },
  unreachable: { description: "The server could not be reached." },
  "rate-limited": { description: "The server kept answering 429 after every retry." },
  timeout: { description: "The server did not answer in time." },
  server: { description: "The server failed (5xx) after every retry, or answered an error we cannot use." },
  "bad-output": { description: "The model's answer could not be used, even after a repair attempt." },
  refused: { description: "The model refused to answer (a refusal or the server's content filter)." },
  config: { description: "The provider settings are missing or invalid." },
  cassette: { description: "A cassette file could not be read, or the game diverged from it." },
  aborted: { description: "The call was cancelled." },
} as const satisfies ErrorTable;

export type AiErrorKind = keyof typeof AI_ERROR_KINDS;

export class AiError extends Error {
  readonly kind: AiErrorKind;

  constructor(kind: AiErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AiError";
    this.kind = kind;
  }
}

export function isAiError(error: unknown): error is AiError {
  return error instanceof AiError;
}
