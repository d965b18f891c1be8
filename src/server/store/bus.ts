import { EventEmitter } from "node:events";
import pg from "pg";

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
  let closed = false;
  let client: pg.Client | null = null;
  // One query at a time on the listening connection: NOTIFYs go out in order.
  let queue: Promise<void> = Promise.resolve();
  const { emitter, bus } = emitterBus((message) => {
    queue = queue.then(() => notify(message));
    return queue;
  });
  const notify = async (message: BusMessage) => {
    const parts =
      message.kind === "chunk" && message.text.length > MAX_CHUNK
        ? splitText(message.text).map((text) => ({ ...message, text }))
        : [message];
    for (const part of parts) {
      const target = client;
      if (target === null) {
        // Reconnecting: deliver locally; other processes' streams catch up by polling.
        emitter.emit(part.game, part);
        continue;
      }
      await target.query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify(part)]).catch(() => {
        emitter.emit(part.game, part);
      });
    }
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client(config);
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

function splitText(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += MAX_CHUNK) out.push(text.slice(at, at + MAX_CHUNK));
  return out;
}
