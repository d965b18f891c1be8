import { AiError } from "../errors.ts";

/**
 * The bounds and sampling of every request (issue 15 item 5, issue 19 item 6):
 * each call kind has a token limit sent as `max_tokens`; streamed narration is
 * also capped in characters received and in total streaming time, so a server
 * that streams for ever or sends 100 MB cannot hold a game or bloat a save.
 * Intent, judge and summary answers are sampled at temperature 0 with a seed
 * from the engine (the same game replays the same answers on servers that
 * honour it); narration's sampling is the player's choice.
 */
export interface NarrationLimits {
  /** `max_tokens` of a narration request. */
  maxTokens: number;
  /** Characters received (story and anything after it) before the story is cut. */
  maxChars: number;
  /** Total time a narration may stream, first byte to last, across attempts. */
  maxStreamMs: number;
  /** Sent only when set: the server's default otherwise. */
  temperature: number | undefined;
  topP: number | undefined;
}

export interface Limits {
  narration: NarrationLimits;
  /** `max_tokens` of an intent, judge and summary answer; raised once (x STRUCTURED_RAISE) when an answer is cut off. */
  structuredMaxTokens: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  narration: Object.freeze({
    maxTokens: 1_200,
    maxChars: 12_000,
    maxStreamMs: 180_000,
    temperature: undefined,
    topP: undefined,
  }),
  structuredMaxTokens: 800,
});

/** How much a cut-off structured answer's limit grows for its one retry. */
export const STRUCTURED_RAISE = 4;

export interface LimitOptions {
  narrationMaxTokens?: number;
  narrationMaxChars?: number;
  /** Milliseconds, like timeoutMs. */
  narrationMaxStreamMs?: number;
  temperature?: number;
  topP?: number;
  structuredMaxTokens?: number;
}

/** The options checked (AiError "config" naming the option) and defaulted. */
export function checkLimits(options: LimitOptions): Limits {
  const whole = (name: string, value: number | undefined, fallback: number, max: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw AiError.of("config", "option-whole", { name, max, value: String(value) });
    return value;
  };
  const real = (name: string, value: number | undefined, max: number): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max)
      throw AiError.of("config", "option-real", { name, max, value: String(value) });
    return value;
  };
  const base = DEFAULT_LIMITS;
  return {
    narration: {
      maxTokens: whole("narrationMaxTokens", options.narrationMaxTokens, base.narration.maxTokens, 32_000),
      maxChars: whole("narrationMaxChars", options.narrationMaxChars, base.narration.maxChars, 200_000),
      // Node timers overflow above 2^31 - 1 ms.
      maxStreamMs: whole(
        "narrationMaxStreamMs",
        options.narrationMaxStreamMs,
        base.narration.maxStreamMs,
        2_147_483_647,
      ),
      temperature: real("temperature", options.temperature, 2),
      topP: real("topP", options.topP, 1),
    },
    structuredMaxTokens: whole(
      "structuredMaxTokens",
      options.structuredMaxTokens,
      base.structuredMaxTokens,
      32_000,
    ),
  };
}

/** What the cassette header records about a provider's sampling (issue 19 item 6). */
export function samplingRecord(limits: Limits): Record<string, number | null> {
  return {
    structuredTemperature: 0,
    structuredMaxTokens: limits.structuredMaxTokens,
    narrationTemperature: limits.narration.temperature ?? null,
    narrationTopP: limits.narration.topP ?? null,
    narrationMaxTokens: limits.narration.maxTokens,
    narrationMaxChars: limits.narration.maxChars,
    narrationMaxStreamMs: limits.narration.maxStreamMs,
  };
}
