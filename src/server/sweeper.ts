import type { Logger } from "./logger.ts";
import { asApiError, type Runner } from "./runner.ts";
import type { Store } from "./store/store.ts";

/** The default of `everyMs`: with the lease (LEASE_MS) it bounds how long a due turn can wait. */
export const SWEEP_MS = 1000;

/** How many due games one sweep hands to the runner at most (the rest: the next sweep, or another process). */
const SWEEP_BATCH = 50;

/**
 * Runs every turn that is due and that nobody runs, whoever accepted its last action: every active
 * player submitted (the process that acknowledged the last one stopped before it ran the turn), the
 * host forced it, its timeout passed, a claim lapsed or its process is gone (it crashed), or a failed step's
 * `retry_at` came. What is due is read from the store (Store.dueGames), never from this process's
 * memory, so a turn queued by a process that died is run by any other. Every process sweeps; the
 * claim makes sure each turn runs once. The turns found go to the runner's fair queue together, not
 * one after another. It closes the party votes whose time is up, too (votes.ts).
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  constructor(
    private readonly store: Store,
    private readonly runner: Runner,
    private readonly log: Logger,
    private readonly everyMs: number = SWEEP_MS,
    /** Closes the party votes whose time is up or whose game moved on (GameCore.settleVotes). */
    private readonly settleVotes?: () => Promise<void>,
  ) {}

  start(): void {
    if (this.everyMs <= 0) return;
    // At once, not a period later: a process started after a crash runs the turns it left due now.
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Hands every due game nobody holds to the runner; resolves once they are handed (not run). */
  async sweep(): Promise<void> {
    if (this.sweeping || this.runner.draining) return;
    this.sweeping = true;
    try {
      // PostgreSQL: the claims of processes that are gone are released first, so their games are due now.
      const released = await this.store.releaseAbsentClaims(Date.now());
      if (released.length > 0)
        this.log.warn({ games: released }, "released the claims of a server process that is gone");
      const due = await this.store.dueGames(Date.now(), SWEEP_BATCH);
      for (const game of due) {
        if (this.runner.has(game.id)) continue;
        void this.runner.maybeTurn(game.id, false).catch((error) => {
          const failure = asApiError(error);
          if (failure.code === "server/internal")
            this.log.error({ game: game.id, err: error }, "a due turn failed");
          else this.log.warn({ game: game.id, code: failure.code }, "a due turn did not run");
        });
      }
      // A vote closes by itself at its time (whoever notices first: a sweep, a read, a ballot).
      await this.settleVotes?.();
    } catch (error) {
      this.log.warn({ err: error }, "sweep failed (is the store reachable?)");
    } finally {
      this.sweeping = false;
    }
  }
}
