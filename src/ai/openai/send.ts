import { AiError } from "../errors.ts";
import {
  abortedError,
  type CallContext,
  type CallName,
  describeFailure,
  type Failure,
  retryClass,
  toAiError,
} from "./errors.ts";
import { nextDelay } from "./retry.ts";
import type { Transport } from "./transport.ts";

/** One attempt of a request: the signal to give the SDK, and a way to restart the timeout. */
export interface Attempt {
  signal: AbortSignal;
  /** Restarts the timeout. Streamed calls call it on every chunk, so the timeout bounds silence, not length. */
  alive(): void;
}

/**
 * Runs a request with the provider's timeout, cancellation and retry policy
 * (retry.ts), and maps its last failure to an AiError (errors.ts). `run`
 * makes one attempt; `canRetry` lets a streamed call refuse a retry once the
 * player has seen part of the answer, and `keepOnTimeout` keep what it
 * received before the server went silent.
 */
export async function send<T>(
  transport: Transport,
  context: CallContext,
  signal: AbortSignal | undefined,
  run: (attempt: Attempt) => Promise<T>,
  canRetry: () => boolean = () => true,
  keepOnTimeout: (result: T) => boolean = () => false,
): Promise<T> {
  let retriedOnce = false;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortedError(context.call);
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, transport.timeoutMs);
    };
    const cancel = () => controller.abort();
    signal?.addEventListener("abort", cancel, { once: true });
    alive();
    let failure: Failure;
    let cause: unknown;
    try {
      const result = await run({ signal: controller.signal, alive });
      // A stream cut by an abort ends quietly in the SDK: what it returned is not the answer,
      // unless the call keeps what the player already saw (a stream that went silent mid-story).
      if (!signal?.aborted && (!timedOut || keepOnTimeout(result))) return result;
      failure = signal?.aborted ? { type: "aborted" } : { type: "timeout" };
    } catch (error) {
      if (error instanceof AiError) throw error;
      cause = error;
      failure = signal?.aborted
        ? { type: "aborted" }
        : timedOut
          ? { type: "timeout" }
          : describeFailure(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    }
    if (failure.type === "aborted") throw abortedError(context.call);
    const retry = retryClass(failure);
    const delay = canRetry()
      ? nextDelay(
          transport.retry,
          retry,
          attempt,
          retriedOnce,
          failure.type === "status" ? failure.retryAfterMs : null,
        )
      : null;
    if (delay === null) throw toAiError(failure, context, attempt + 1, cause);
    if (retry === "once") retriedOnce = true;
    try {
      await transport.retry.sleep(delay, signal);
    } catch {
      throw abortedError(context.call);
    }
  }
}

/**
 * A port call that settles as soon as its signal aborts (AiError "aborted"),
 * whatever the work is doing; the work's late answer or failure is ignored.
 */
export function guard<T>(
  call: CallName,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortedError(call));
  const running = work();
  if (!signal) return running;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abortedError(call));
    signal.addEventListener("abort", stop, { once: true });
    running.then(
      (value) => {
        signal.removeEventListener("abort", stop);
        if (signal.aborted) reject(abortedError(call));
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", stop);
        reject(signal.aborted ? abortedError(call) : error);
      },
    );
  });
}
