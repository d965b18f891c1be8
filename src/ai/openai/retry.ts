/**
 * When to try a request again, and how long to wait first. The SDK's own
 * retries are off: this is the one retry policy of the provider.
 *
 * - 429, 408, 409 and 5xx, and a connection dropped mid-request: up to
 *   `maxRetries` more attempts, with exponential backoff and jitter, or the
 *   server's `retry-after-ms` / `retry-after` when it sends one (capped).
 * - A timeout: at most one more attempt (a slow server rarely gets faster,
 *   and each attempt may cost the whole timeout).
 * - Anything else (bad key, unknown model, refused connection, 400): never.
 */
export interface RetryPolicy {
  /** More attempts after the first (default 3). */
  maxRetries: number;
  /** The first backoff delay; each retry doubles it (default 500 ms). */
  baseDelayMs: number;
  /** The longest backoff delay (default 8 s). */
  maxDelayMs: number;
  /** The longest wait a server's retry-after header may ask for (default 30 s). */
  maxRetryAfterMs: number;
  /** Waits; rejects when the signal aborts. Tests pass one that records and returns at once. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** 0 <= x < 1, for jitter. */
  random: () => number;
}

export const DEFAULT_MAX_RETRIES = 3;

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    maxRetries: DEFAULT_MAX_RETRIES,
    baseDelayMs: 500,
    maxDelayMs: 8_000,
    maxRetryAfterMs: 30_000,
    sleep,
    random: Math.random,
    ...overrides,
  };
}

/** What a failed attempt allows. */
export type RetryClass = "backoff" | "once" | "never";

/**
 * The delay before the next attempt, or null to give up.
 * `attempt` counts from 0 (the first request); `retriedOnce` says whether a
 * "once" failure was already retried.
 */
export function nextDelay(
  policy: RetryPolicy,
  retry: RetryClass,
  attempt: number,
  retriedOnce: boolean,
  retryAfterMs: number | null,
): number | null {
  if (retry === "never" || attempt >= policy.maxRetries) return null;
  if (retry === "once" && retriedOnce) return null;
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  // "Equal jitter": between half the ceiling and the ceiling, so retries of parallel clients spread out.
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/** The wait a response asks for: `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}
