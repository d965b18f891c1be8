import type { Bus, BusMessage } from "./store/bus.ts";

/** A narration being written: its tick and the text so far. */
export interface Narrating {
  tick: number;
  text: string;
}

/**
 * The narrations this process is writing, one per game, so that a stream that
 * opens in the middle of one (a reload, a dropped connection, a client of
 * another process) gets it from its first character: a stream asks with a
 * `replay` message on the game's channel, and the process writing the
 * narration answers with the text so far as one chunk at 0. Chunks carry
 * where they start (`at`), so a stream skips what it has already sent and
 * waits out a gap. Nothing is stored: once the step is stored, its event
 * carries the whole narration.
 */
export class LiveNarrations {
  private readonly writing = new Map<string, Narrating & { off?: Promise<() => void> }>();

  constructor(private readonly bus: Bus) {}

  /**
   * Publishes a chunk of the game's narration of `tick`, with where it starts. The first chunk of a
   * step starts listening for replay requests (until `end`).
   */
  chunk(game: string, tick: number, text: string): void {
    let now = this.writing.get(game);
    if (!now || now.tick !== tick) {
      now = { tick, text: "" };
      this.writing.set(game, now);
      const mine = now;
      mine.off = this.bus.subscribe(game, (message) => {
        if (message.kind === "replay" && this.writing.get(game) === mine && mine.text !== "")
          void this.bus
            .publish({ game, kind: "chunk", tick: mine.tick, text: mine.text, at: 0 })
            .catch(() => {});
      });
    }
    const at = now.text.length;
    now.text += text;
    void this.bus.publish({ game, kind: "chunk", tick, text, at }).catch(() => {});
  }

  /** The game's step ended (stored or failed): its narration is no longer replayed from here. */
  end(game: string): void {
    const now = this.writing.get(game);
    if (!now) return;
    this.writing.delete(game);
    void now.off?.then((off) => off()).catch(() => {});
  }

  /** The narration this process is writing for the game, if any. */
  current(game: string): Narrating | undefined {
    const now = this.writing.get(game);
    return now ? { tick: now.tick, text: now.text } : undefined;
  }
}

/**
 * One stream's view of the live narration: what it has written of each tick's text, so a replayed
 * chunk (at 0) sends only what the stream has not, and a chunk after a gap is held back until the
 * replay covers it (it asks again once per gap).
 */
export class NarrationCursor {
  private tick = -1;
  private sent = 0;
  private askedAt = 0;

  /** The text of `message` this stream has not written yet ("" for none), or null after a gap. */
  fresh(message: Extract<BusMessage, { kind: "chunk" }>): string | null {
    if (message.at === undefined) return message.text;
    if (message.tick !== this.tick) {
      if (message.tick < this.tick) return "";
      this.tick = message.tick;
      this.sent = 0;
    }
    if (message.at > this.sent) return null;
    const rest = message.text.slice(this.sent - message.at);
    this.sent += rest.length;
    return rest;
  }

  /**
   * Whether to ask for a replay after a gap: at most once a second (a request sent before the writer
   * listened is asked again at a later chunk, not at every one).
   */
  ask(now = Date.now()): boolean {
    if (now - this.askedAt < 1000) return false;
    this.askedAt = now;
    return true;
  }

  /** Where the text written so far ends (the `at` of the next chunk to write). */
  get offset(): number {
    return this.sent;
  }
}
