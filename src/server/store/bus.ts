import { EventEmitter } from "node:events";
import type pg from "pg";

/**
 * Wakes the listeners of a game. `events`: new stored events exist (listeners
 * read them from the store, so nothing is lost); `chunk`: a piece of
 * narration as it streams (live only, never stored: the turn's event carries
 * the whole narration). On PostgreSQL every process sharing the database
 * hears every message (LISTEN/NOTIFY); with SQLite there is one process.
 */
export type BusMessage =
  | { game: string; kind: "events" }
  | { game: string; kind: "chunk"; tick: number; text: string };

export interface Bus {
  publish(message: BusMessage): Promise<void>;
  subscribe(game: string, listener: (message: BusMessage) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = "taleforge_events";
/** NOTIFY payloads must stay under 8000 bytes; longer chunks are split. */
const MAX_CHUNK = 2000;

function emitterBus(send: (message: BusMessage) => Promise<void>) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emitter,
    bus: {
      publish: send,
      subscribe(game: string, listener: (message: BusMessage) => void) {
        emitter.on(game, listener);
        return () => emitter.off(game, listener);
      },
    },
  };
}

export function localBus(): Bus {
  const { emitter, bus } = emitterBus(async (message) => {
    emitter.emit(message.game, message);
  });
  return {
    ...bus,
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

export async function postgresBus(config: pg.ClientConfig): Promise<Bus> {
  // Loaded here, not with the module: a server on SQLite never loads pg (some 100 ms of its start).
  const { default: postgres } = await import("pg");
  let closed = false;
  let client: pg.Client | null = null;
  // Messages wait here while a NOTIFY round trip is under way; the next one sends them all at once
  // (one query, in order), so a turn's narration chunks and wakes cost one round trip, not one each.
  let pending: { message: BusMessage; done: () => void }[] = [];
  let sending = false;
  const pump = async () => {
    sending = true;
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        await notify(batch.map((p) => p.message));
        for (const p of batch) p.done();
      }
    } finally {
      sending = false;
    }
  };
  const { emitter, bus } = emitterBus(
    (message) =>
      new Promise<void>((resolve) => {
        pending.push({ message, done: resolve });
        if (!sending) void pump();
      }),
  );
  /** Sequence numbers keep two equal payloads of one query apart (PostgreSQL folds equal ones into one). */
  let sequence = 0;
  const notify = async (messages: BusMessage[]) => {
    const parts = coalesce(messages).flatMap((message) =>
      message.kind === "chunk" && message.text.length > MAX_CHUNK
        ? splitText(message.text).map((text) => ({ ...message, text }))
        : [message],
    );
    const target = client;
    if (target === null) {
      // Reconnecting: deliver locally; other processes' streams catch up by polling.
      for (const part of parts) emitter.emit(part.game, part);
      return;
    }
    const payloads = parts.map((part) =>
      JSON.stringify(part.kind === "chunk" ? { ...part, n: sequence++ } : part),
    );
    await target
      // unnest yields the payloads in order: the NOTIFYs go out (and arrive) in that order.
      // Prepared once per connection (named): PostgreSQL parses it at the first NOTIFY, not at each.
      .query({
        name: "tf_notify",
        text: "select pg_notify($1, payload) from unnest($2::text[]) as payload",
        values: [CHANNEL, payloads],
      })
      .catch(() => {
        for (const part of parts) emitter.emit(part.game, part);
      });
  };
  const connect = async (): Promise<void> => {
    const next = new postgres.Client(config);
    next.on("notification", (n) => {
      if (n.channel !== CHANNEL || n.payload === undefined) return;
      try {
        const message = JSON.parse(n.payload) as BusMessage;
        if (typeof message.game === "string") emitter.emit(message.game, message);
      } catch {
        // Not ours: ignore.
      }
    });
    const retry = () => {
      if (client === next) client = null;
      next.removeAllListeners("error");
      next.on("error", () => {});
      if (!closed)
        setTimeout(() => {
          if (!closed) void connect().catch(() => retry());
        }, 1000).unref();
    };
    next.on("error", retry);
    next.on("end", () => {
      if (client === next) retry();
    });
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    if (closed) {
      // The bus was closed while this reconnection was under way: it must not outlive it (an open
      // connection keeps the process alive).
      next.removeAllListeners("end");
      await next.end().catch(() => {});
      return;
    }
    client = next;
  };
  await connect();
  return {
    ...bus,
    async close() {
      closed = true;
      emitter.removeAllListeners();
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * One batch made smaller: a game's consecutive narration chunks of one tick become one chunk (the
 * text joined), and a game's "events" wake is sent once per batch (listeners read every stored event
 * since their last one, so one wake finds them all). The order of what is left is kept.
 */
export function coalesce(messages: BusMessage[]): BusMessage[] {
  const out: BusMessage[] = [];
  for (const message of messages) {
    if (message.kind === "events") {
      // A later wake of the same game is folded into the one before when no chunk of it came between.
      if (out.findLast((m) => m.game === message.game)?.kind !== "events") out.push(message);
      continue;
    }
    const last = out.at(-1);
    if (last?.kind === "chunk" && last.game === message.game && last.tick === message.tick)
      out[out.length - 1] = { ...last, text: last.text + message.text };
    else out.push(message);
  }
  return out;
}

function splitText(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += MAX_CHUNK) out.push(text.slice(at, at + MAX_CHUNK));
  return out;
}
