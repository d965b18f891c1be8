import type { Logger } from "./logger.ts";
import type { Runner } from "./runner.ts";
import type { Store } from "./store/store.ts";

/**
 * Runs the turns nobody asked for in a request: a host's forced turn whose
 * request died with its process, a turn whose timeout passed, a claim left
 * by a process that crashed. Every process sweeps; the lease makes sure each
 * turn runs once.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  constructor(
    private readonly store: Store,
    private readonly runner: Runner,
    private readonly log: Logger,
    private readonly everyMs: number,
  ) {}

  start(): void {
    if (this.everyMs <= 0) return;
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const due = (await this.store.dueGames(Date.now(), 20)).map((g) => g.id);
      for (const game of new Set([...due, ...this.runner.retrying()])) {
        await this.runner.maybeTurn(game, false).catch((error) => {
          this.log.warn({ game, err: error }, "a due turn failed");
        });
      }
    } catch (error) {
      this.log.warn({ err: error }, "sweep failed (is the store reachable?)");
    } finally {
      this.sweeping = false;
    }
  }
}
