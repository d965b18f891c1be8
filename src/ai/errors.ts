import { type ErrorInfo, errorMessage } from "../world/error-table.ts";

/**
 * The short list every provider failure maps to, once, at the boundary
 * (style guide "Providers"): a host shows `message` as one line and may act
 * on `kind` (e.g. wait on `rate-limited`). The engine wraps it as `ai/failed`.
 * The messages are written only here, as templates with `{named}`
 * placeholders, raised with `AiError.of(kind, messageId, data)`; `new
 * AiError(kind, message)` is left for an error replayed from a cassette, whose
 * message was recorded.
 */
export const AI_ERROR_KINDS = {
  auth: {
    description: "The server refused the API key.",
    messages: {
      "refused-key": "{at} refused the API key (401). Set TALEFORGE_API_KEY or --api-key.",
      "no-key": "{at} wants an API key (401) and none was given. Set TALEFORGE_API_KEY or --api-key.",
      forbidden: '{at} refused access (403){said}. Check that the API key may use the model "{model}".',
    },
  },
  "unknown-model": {
    description: "The server does not know the model.",
    messages: {
      "unknown-model": '{at} does not know the {which}model "{model}" ({status}). Check {flag}{pull}.',
    },
  },
  unreachable: {
    description: "The server could not be reached.",
    messages: {
      unreachable:
        "Could not reach the server at {baseUrl} ({reason}). Check that it is running and that --base-url is right.",
    },
  },
  "rate-limited": {
    description: "The server kept answering 429 after every retry.",
    messages: {
      quota: "{at} says the account is out of quota (429){said}. Check the plan and billing of the API key.",
      "rate-limited": "{at} kept answering 429 (rate limited){tries}{said}. Wait a minute and try again.",
    },
  },
  timeout: {
    description: "The server did not answer in time.",
    messages: {
      timeout:
        "{at} did not answer the {call} request within {seconds}{tries}. Raise --timeout, or use a smaller or already loaded model.",
      "no-story":
        "The server at {baseUrl} streamed no story within the narration streaming limit of {limit} (narrationMaxStreamMs).",
    },
  },
  server: {
    description: "The server failed (5xx) after every retry, or answered an error we cannot use.",
    messages: {
      "stream-cut":
        "{at} closed the {call} stream after {chars} characters without a finish_reason{tries}: the answer was incomplete. Try again, or look at the server's log.",
      "bad-response":
        "{at} did not answer like an OpenAI-compatible API ({reason}). Check --base-url; it usually ends in /v1.",
      failed:
        "{at} failed ({status}) on the {call} request{tries}{said}. Try again later, or look at the server's log.",
      rejected: "{at} rejected the {call} request ({status}){said}.",
    },
  },
  "bad-output": {
    description: "The model's answer could not be used, even after a repair attempt.",
    messages: {
      "chunk-handler": "The host's chunk handler failed: {reason}",
      offline: "The offline {port} could not answer: {reason}",
      unusable:
        'The model "{model}" gave no usable {call} answer, even after a repair request: {reason}. Try a larger or instruction-tuned model.',
      "cut-off":
        'The model "{model}" was cut off at its {tokens}-token limit twice on the {call} answer. Raise structuredMaxTokens, or use a model that answers briefly.',
      "no-story":
        'The model "{model}" wrote no story for the narration. Try again, or use a larger or instruction-tuned model.',
    },
  },
  refused: {
    description: "The model refused to answer (a refusal or the server's content filter).",
    messages: {
      request:
        'The model "{model}" refused the {call} request: {refusal} A refusal is not an answer; try another model.',
      narration:
        'The model "{model}" refused to narrate: {refusal} A refusal is not a story; try another model.',
    },
  },
  config: {
    description: "The provider settings are missing or invalid.",
    messages: {
      "no-endpoint": "{at} has no {endpoint} endpoint (404){said}. Check --base-url; it usually ends in /v1.",
      "model-with-base-url": "--model is required with --base-url; e.g. llama3.1 for Ollama.",
      "model-with-openai":
        "--model is required with the openai provider; e.g. gpt-4o-mini for OpenAI, or llama3.1 with --base-url for Ollama.",
      "needs-key":
        "The server at {baseUrl} needs an API key: set TALEFORGE_API_KEY or OPENAI_API_KEY, or pass --api-key{local}.",
      "context-tokens":
        'The context window "{value}" (from {from}) must be a whole number of tokens from 2048 to 10000000, e.g. 8192.',
      "unknown-provider": 'Unknown provider "{value}" (from {from}).{suggestion} Use offline or openai.',
      "base-url":
        'The base URL "{value}" (from {from}) is not an http(s) URL; e.g. http://127.0.0.1:11434/v1.',
      timeout: 'The timeout "{value}" (from {from}) must be a number of seconds > 0, e.g. 120.',
      "timeout-over":
        'The timeout "{value}" (from {from}) is over the limit of {max} seconds (one day); e.g. 120.',
      "file-missing": "The config file {path} does not exist (from --config).",
      "file-unreadable": "The config file {path} could not be read ({reason}).",
      "file-json": "{path}:{line}:{column}: not valid JSON ({reason}).",
      "file-not-object":
        '{path}: must hold one JSON object, e.g. {"baseUrl": "http://127.0.0.1:11434/v1", "model": "llama3.1"}.',
      "file-unknown-field": '{path}: unknown field "{key}".{suggestion} Fields: {fields}.',
      "file-schema": '{path}: "$schema" must be a string.',
      "file-field": '{path}: "{field}" {rule}{got}.',
      "no-options": "Pass the openai provider's options (baseUrl, model).",
      "option-base-url": "The base URL {value} is not an http(s) URL; e.g. http://127.0.0.1:11434/v1.",
      "no-model": "The openai provider needs a model; e.g. --model llama3.1 for Ollama.",
      "option-timeout": "The timeout must be a number of milliseconds > 0, not {value}.",
      "option-count": "{name} must be a whole number >= 0, not {value}.",
      "option-timeout-over": "The timeout must be at most 2147483 seconds, not {seconds}.",
      "option-context-tokens": "contextTokens must be a whole number from {min} to 10000000, not {value}.",
      "option-context-room":
        "contextTokens ({tokens}) leaves no room for a prompt beside the narration's {answer}-token answer: lower narrationMaxTokens or raise contextTokens.",
      "option-whole": "{name} must be a whole number from 1 to {max}, not {value}.",
      "option-real": "{name} must be a number from 0 to {max}, not {value}.",
    },
  },
  cassette: {
    description: "A cassette file could not be read, or the game diverged from it.",
    messages: {
      unwritable: "cannot write the cassette {path}: {reason}. Check that its folder exists and is writable.",
      missing: "no cassette at {path}. Record one with --record {path}.",
      unreadable: "cannot read the cassette {path}: {reason}.",
      "not-json":
        "{name}:{line}: not a JSON line. A cassette is JSON Lines written by --record; was it edited or cut?",
      empty: "{name} is empty. Record a game with --record {name}.",
      version: "{name} is cassette version {version}; this Taleforge reads version {supported}.",
      "bad-header": "{name}:1: not a Taleforge cassette header ({reason}).",
      "bad-entry": "{name}:{line}: not a cassette entry ({reason}).",
      "after-end":
        "The game asked for a {call} call after the end of {name}: it diverged from the recording.",
      "input-recorded":
        "The game diverged from {where}: it asked for a {call} call where the recording has a player input.",
      "other-call":
        "The game diverged from {where}: it asked for a {call} call where the recording has a {recorded} call.",
      "other-request":
        "The game diverged from {where} ({call}): the request differs at {difference}. Replay with the same world, seed, players and Taleforge version.",
    },
  },
  aborted: {
    description: "The call was cancelled.",
    messages: {
      request: "The {call} request was cancelled.",
      call: "The call was cancelled.",
    },
  },
} as const satisfies Readonly<Record<string, ErrorInfo>>;

export type AiErrorKind = keyof typeof AI_ERROR_KINDS;

/** The kinds whose table entry holds message templates. */
type WordedKind = {
  [K in AiErrorKind]: (typeof AI_ERROR_KINDS)[K] extends { messages: object } ? K : never;
}[AiErrorKind];

/** The message ids of one kind. */
export type AiMessageId<K extends WordedKind> = Extract<keyof (typeof AI_ERROR_KINDS)[K]["messages"], string>;

export class AiError extends Error {
  readonly kind: AiErrorKind;

  /** An error with its message as given: one still worded where it is raised, or replayed from a cassette. */
  constructor(kind: AiErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AiError";
    this.kind = kind;
  }

  /** An error whose message is the table's template `messageId` of `kind`, filled with `data`. */
  static of<K extends WordedKind>(
    kind: K,
    messageId: AiMessageId<K>,
    data: Record<string, string | number> = {},
    options?: { cause?: unknown },
  ): AiError {
    return new AiError(kind, errorMessage(AI_ERROR_KINDS, kind, messageId, data), options);
  }
}

export function isAiError(error: unknown): error is AiError {
  return error instanceof AiError;
}
