import type { SentRequest } from "../provider.ts";

/**
 * The last request of each kind a provider sent (issue 39), kept so that
 * `taleforge play --show-prompt` can show an author exactly what the model
 * saw. One body per kind, replaced on every send (a retry or a repair
 * request is the last one): bounded by the prompt budgets.
 */
export class SentRequests {
  private readonly last = new Map<SentRequest["kind"], SentRequest>();
  private count = 0;

  constructor(private readonly url: string) {}

  /** Notes `body` as the last request of `kind`, just before it goes out. */
  note(kind: SentRequest["kind"], body: Record<string, unknown>): void {
    this.last.set(kind, { kind, seq: ++this.count, url: this.url, body });
  }

  /** The last request of each kind, in the order they were sent. */
  list(): SentRequest[] {
    return [...this.last.values()].sort((a, b) => a.seq - b.seq);
  }
}
