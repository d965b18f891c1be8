/**
 * SQLite only: the state of each game's step as this process last committed it, so that the next
 * step's restore (Store.lastTurn) does not read back what was just written. A turn row never changes
 * once written and a game's seqs only grow (a step's commit or a story control moves them on; deleted
 * steps are never written again), so a game's row at a remembered seq holds the remembered state.
 * Reading it back cost SQLite's thread an inflate and the text's copies into and out of SQLite and
 * across the two threads, at every turn. PostgreSQL's store is shared by processes: not used there.
 *
 * Bounded by the texts' total length (least recently used first out): the games playing at once.
 */
export class HeadStates {
  readonly #states = new Map<string, { seq: number; state: string }>();
  #chars = 0;
  constructor(private readonly limit: number) {}

  remember(game: string, seq: number, state: string): void {
    this.forget(game);
    if (state.length > this.limit) return;
    this.#states.set(game, { seq, state });
    this.#chars += state.length;
    for (const [oldest, head] of this.#states) {
      if (this.#chars <= this.limit) break;
      this.#states.delete(oldest);
      this.#chars -= head.state.length;
    }
  }

  /** The remembered step of `game`, if any (it becomes the most recently used). */
  known(game: string): { seq: number; state: string } | undefined {
    const head = this.#states.get(game);
    if (head !== undefined) {
      this.#states.delete(game);
      this.#states.set(game, head);
    }
    return head;
  }

  forget(game: string): void {
    const head = this.#states.get(game);
    if (head === undefined) return;
    this.#states.delete(game);
    this.#chars -= head.state.length;
  }
}
