import type { ApiError } from "./errors.ts";

/**
 * A failed turn is the table's problem, not the players' (issue 34): it runs
 * again by itself after each of these waits, then waits for someone to press
 * Retry (the host's Force the turn, a player's Retry). Doubling from 10 s,
 * about five minutes in all: a model that is back within a minute or two
 * finds the turn run without anyone asking; one that stays down is not asked
 * every few seconds for ever.
 */
export const RETRY_DELAYS_MS: readonly number[] = [10_000, 20_000, 40_000, 80_000, 160_000];

/** What players are told of a failed turn: never the model's address, a route or a code. */
export interface FailureNotice {
  tick: number;
  /** One plain sentence: what went wrong, and what happens next. */
  message: string;
  /** What went wrong alone ("The narrator did not answer."), for a page that counts down itself. */
  reason: string;
  /** When the turn runs again by itself (epoch ms); null: it waits for a Retry. */
  retryAt: number | null;
  /** How many times in a row this turn has failed. */
  attempt: number;
}

/** What went wrong, in a player's words: the narrator (a model), or the turn itself (a script). */
export function failureReason(failure: ApiError): string {
  const details = failure.details as { ai?: string; engine?: string };
  if (details.ai !== undefined || details.engine?.startsWith("ai/")) return "The narrator did not answer.";
  return "The turn could not be played.";
}

/** "Trying again in 20 s.", or what to do once the turn no longer runs again by itself. */
export function retryWords(retryInMs: number | null): string {
  if (retryInMs === null) return "It will not try again by itself: press Retry when you are ready.";
  return `Trying again in ${Math.max(1, Math.round(retryInMs / 1000))} s.`;
}

/**
 * The turns of this process's games that failed, and when each runs again.
 * A turn that runs (or is no longer ready: paused, not everyone acted) is
 * forgotten; one that fails again waits the next delay, and after the last
 * one waits for a Retry.
 */
export class FailedTurns {
  private readonly games = new Map<string, { tick: number; attempts: number; dueAt: number | null }>();
  constructor(
    private readonly delaysMs: readonly number[] = RETRY_DELAYS_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that `game`'s turn `tick` failed; answers what the players are told. */
  failed(game: string, tick: number, failure: ApiError): FailureNotice {
    const before = this.games.get(game);
    const attempts = before?.tick === tick ? before.attempts + 1 : 1;
    const delay = this.delaysMs[attempts - 1];
    const dueAt = delay === undefined ? null : this.now() + delay;
    this.games.set(game, { tick, attempts, dueAt });
    const reason = failureReason(failure);
    return {
      tick,
      message: `${reason} ${retryWords(delay ?? null)}`,
      reason,
      retryAt: dueAt,
      attempt: attempts,
    };
  }

  /** The turn ran, or is no longer ready to run: nothing to try again. */
  settled(game: string): void {
    this.games.delete(game);
  }

  /** The games whose next attempt is due now. */
  due(): string[] {
    const now = this.now();
    return [...this.games].filter(([, f]) => f.dueAt !== null && f.dueAt <= now).map(([game]) => game);
  }
}
