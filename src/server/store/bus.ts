import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import type pg from "pg";

/**
 * Wakes the listeners of a game. `events`: new stored events exist (listeners
 * read them from the store, so nothing is lost); `chunk`: a piece of
 * narration as it streams (live only, never stored: the turn's event carries
 * the whole narration). On PostgreSQL each game has its own channel
 * (LISTEN/NOTIFY), which a process listens on only while one of its event
 * streams follows that game: a process hears the games its clients follow,
 * not every game's turns. With SQLite there is one process.
 *
 * A chunk's `at` is where its text starts in the narration of its tick, so a listener can tell a chunk
 * it already has from one after a gap. `replay` asks whoever is writing the game's narration to publish
 * it again from its first character (one chunk at 0): a stream that opens mid-narration, on any
 * process, gets the whole text (live-narration.ts).
 */
export type BusMessage =
  | EventsMessage
  | { game: string; kind: "chunk"; tick: number; text: string; at?: number }
  | { game: string; kind: "replay" };

/**
 * A wake for new stored events. A wake sent by the write that stored them may carry them (`events`,
 * when they fit in a NOTIFY's payload) with `last`, the game's event_seq after that write: a stream
 * whose last event is the one just before them writes them without reading the store (routes/events.ts).
 */
export type EventsMessage = { game: string; kind: "events"; last?: number; events?: CarriedEvent[] };

/**
 * One stored event as a wake carries it: `o`, its number among the write's events for everyone (1 for
 * the first: its seq is `last` minus the write's count plus `o`), `s` its sub, and its audience, kind
 * and data (the JSON text as stored).
 */
export interface CarriedEvent {
  o: number;
  s: number;
  audience: string;
  kind: string;
  data: string;
}

/** The seq and sub of each event a wake carries (see CarriedEvent). */
export function carriedIds(message: EventsMessage): { seq: number; sub: number }[] {
  const events = message.events ?? [];
  const count = events.at(-1)?.o ?? 0;
  return events.map((e) => ({ seq: (message.last ?? 0) - count + e.o, sub: e.s }));
}

/**
 * A wake's NOTIFY for a writer's own statement: `numbered`, its payload ends with `"last":` and the
 * statement appends the game's event_seq and `}` (statements.ts).
 */
export interface WakeNotice {
  channel: string;
  payload: string;
  numbered?: true;
}

export interface Bus {
  publish(message: BusMessage): Promise<void>;
  /**
   * Calls `listener` with the game's messages until the function it answers is called. It resolves
   * once the messages published from then on reach this process (on PostgreSQL: once it listens on
   * the game's channel, or at once while the bus reconnects: a reader polls the store meanwhile).
   */
  subscribe(game: string, listener: (message: BusMessage) => void): Promise<() => void>;
  /**
   * PostgreSQL: the NOTIFY of the game's "events" wake (channel and payload), for a writer to send in
   * its own statement (pg_notify, delivered at its commit) instead of a publish's round trip of its
   * own; undefined while the bus reconnects (publish then delivers it to this process's listeners).
   * `afterPublished`: the wake must reach listeners after what was published for the game before it
   * (a step's narration chunks before its turn's event): undefined also while any of those is not sent
   * yet (a NOTIFY sent is queued before any later commit's), so that the writer publishes it after them.
   * `events`: the write's events, carried by the wake when they fit (then `numbered`).
   */
  wakeNotice?(game: string, afterPublished?: boolean, events?: CarriedEvent[]): WakeNotice | undefined;
  close(): Promise<void>;
}

/**
 * A game's channel: "tf_" and its id (ids are 32 hex digits), or a digest of an id that would not
 * make a short plain identifier (PostgreSQL's channel names stop at 63 bytes).
 */
export function channelOf(game: string): string {
  return /^[A-Za-z0-9_-]{1,60}$/.test(game)
    ? `tf_${game}`
    : `tf_${createHash("sha256").update(game).digest("hex").slice(0, 40)}`;
}
const NOTIFY_GAMES =
  "select pg_notify(channel, payload) from unnest($1::text[], $2::text[]) as m(channel, payload)";
/** NOTIFY payloads must stay under 8000 bytes; longer chunks are split. */
const MAX_CHUNK = 2000;
/** The longest payload of a wake that carries its events (bytes); a longer one carries none. */
const MAX_CARRIED = 7000;

/** A wake's payload with its events when they fit (`numbered`: it ends with `"last":`), else a plain one. */
function wakePayload(game: string, events: CarriedEvent[] | undefined): { payload: string; numbered?: true } {
  const plain = JSON.stringify({ game, kind: "events" } satisfies BusMessage);
  if (events === undefined || events.length === 0) return { payload: plain };
  const payload = `${plain.slice(0, -1)},"events":${JSON.stringify(events)},"last":`;
  return Buffer.byteLength(payload) + 20 <= MAX_CARRIED ? { payload, numbered: true } : { payload: plain };
}

function emitter(): EventEmitter {
  const out = new EventEmitter();
  out.setMaxListeners(0);
  return out;
}

export function localBus(): Bus {
  const local = emitter();
  return {
    publish: async (message) => {
      local.emit(message.game, message);
    },
    subscribe: async (game, listener) => {
      local.on(game, listener);
      return () => local.off(game, listener);
    },
    close: async () => {
      local.removeAllListeners();
    },
  };
}

export async function postgresBus(config: pg.ClientConfig): Promise<Bus> {
  // Loaded here, not with the module: a server on SQLite never loads pg (some 100 ms of its start).
  const { default: postgres } = await import("pg");
  let closed = false;
  let client: pg.Client | null = null;
  const local = emitter();
  // Messages wait here while a NOTIFY round trip is under way; the next one sends them all at once
  // (one query, in order), so a turn's narration chunks and wakes cost one round trip, not one each.
  let pending: { message: BusMessage; done: () => void }[] = [];
  /** Per game, how many of its published messages are not sent yet (wakeNotice's `afterPublished`). */
  const unsent = new Map<string, number>();
  let sending = false;
  /** The pump under way, if any: close() lets it send what it holds first. */
  let pumping: Promise<void> = Promise.resolve();
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
  /** Sequence numbers keep two equal payloads of one query apart (PostgreSQL folds equal ones into one). */
  let sequence = 0;
  const notify = async (messages: BusMessage[]) => {
    const parts = coalesce(messages).flatMap((message) =>
      message.kind === "chunk" && message.text.length > MAX_CHUNK
        ? splitText(message.text).map((text, i) => ({
            ...message,
            text,
            ...(message.at === undefined ? {} : { at: message.at + i * MAX_CHUNK }),
          }))
        : [message],
    );
    const target = client;
    if (target === null) {
      // Reconnecting: deliver locally; other processes' streams catch up by polling.
      for (const part of parts) local.emit(part.game, part);
      return;
    }
    const channels = parts.map((part) => channelOf(part.game));
    const payloads = parts.map((part) => {
      const payload = JSON.stringify(part.kind === "chunk" ? { ...part, n: sequence++ } : part);
      // A wake whose events do not fit goes without them (its listeners read the store).
      return part.kind === "events" && part.events !== undefined && Buffer.byteLength(payload) > MAX_CARRIED
        ? JSON.stringify({ game: part.game, kind: "events" } satisfies BusMessage)
        : payload;
    });
    // unnest yields the pairs in order: the NOTIFYs go out (and arrive) in that order.
    // Prepared once per connection (named): PostgreSQL parses it at the first NOTIFY, not at each. A
    // Query built from its text, named after (see prepared.ts: pg copies a query object slowly).
    const query = new postgres.Query(NOTIFY_GAMES, [channels, payloads]) as pg.Query & {
      name: string;
      callback?: (error: Error | null) => void;
    };
    query.name = "tf_notify_games";
    await new Promise<void>((resolve) => {
      query.callback = (error) => {
        if (error) for (const part of parts) local.emit(part.game, part);
        resolve();
      };
      target.query(query);
    });
  };

  /**
   * The channels this process listens on follow the games its listeners follow: `wanted` (a game's
   * channel while it has a listener here), `heard` (the channels the connection listens on). A sync
   * sends the difference as one query (LISTEN and UNLISTEN statements), one at a time, in order.
   */
  const wanted = new Map<string, number>();
  let heard = new Set<string>();
  /** Syncs run one after the other; each sends what differs when it runs (often nothing). */
  let chain: Promise<void> = Promise.resolve();
  /** A sync's query is under way: what `heard` says may be about to change. */
  let inFlight = false;
  const syncOnce = async () => {
    const target = client;
    if (target === null || closed) return; // connect() listens on every wanted channel
    const listen = [...wanted.keys()].filter((c) => !heard.has(c));
    const unlisten = [...heard].filter((c) => !wanted.has(c));
    if (listen.length === 0 && unlisten.length === 0) return;
    const text = [
      ...listen.map((c) => `listen ${quote(c)}`),
      ...unlisten.map((c) => `unlisten ${quote(c)}`),
    ].join("; ");
    inFlight = true;
    try {
      await target.query(text);
      if (client === target) {
        for (const c of listen) heard.add(c);
        for (const c of unlisten) heard.delete(c);
      }
    } catch {
      // The connection failed: connect() listens again on what is wanted then.
    } finally {
      inFlight = false;
    }
  };
  const sync = (): Promise<void> => {
    chain = chain.then(syncOnce, syncOnce);
    return chain;
  };

  const connect = async (): Promise<void> => {
    const next = new postgres.Client(config);
    next.on("notification", (n) => {
      if (n.payload === undefined) return;
      try {
        const message = JSON.parse(n.payload) as BusMessage;
        if (typeof message.game === "string") local.emit(message.game, message);
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
    const channels = [...wanted.keys()];
    if (channels.length > 0) await next.query(channels.map((c) => `listen ${quote(c)}`).join("; "));
    if (closed) {
      // The bus was closed while this reconnection was under way: it must not outlive it (an open
      // connection keeps the process alive).
      next.removeAllListeners("end");
      await next.end().catch(() => {});
      return;
    }
    client = next;
    heard = new Set(channels);
    // Games subscribed or left while this connection was being made.
    void sync();
  };
  await connect();
  return {
    publish: (message) =>
      new Promise<void>((resolve) => {
        const game = message.game;
        unsent.set(game, (unsent.get(game) ?? 0) + 1);
        const done = () => {
          const left = (unsent.get(game) ?? 1) - 1;
          if (left > 0) unsent.set(game, left);
          else unsent.delete(game);
          resolve();
        };
        pending.push({ message, done });
        if (!sending) pumping = pump();
      }),
    wakeNotice: (game, afterPublished, events) =>
      client === null || closed || (afterPublished === true && unsent.has(game))
        ? undefined
        : { channel: channelOf(game), ...wakePayload(game, events) },
    async subscribe(game, listener) {
      local.on(game, listener);
      const channel = channelOf(game);
      wanted.set(channel, (wanted.get(channel) ?? 0) + 1);
      // Also while a sync is under way: it may be leaving this channel (its last listener left).
      if (!heard.has(channel) || inFlight) await sync();
      let left = false;
      return () => {
        if (left) return;
        left = true;
        local.off(game, listener);
        const count = (wanted.get(channel) ?? 1) - 1;
        if (count > 0) wanted.set(channel, count);
        else {
          wanted.delete(channel);
          if (!closed) void sync();
        }
      };
    },
    async close() {
      closed = true;
      // What was published before the close goes out first (a step's wake is not awaited: Store.commitStep),
      // within a bound: a connection that does not answer does not hold the close up.
      await Promise.race([pumping, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      local.removeAllListeners();
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/** A channel name as an SQL identifier (channelOf makes only plain ones; quoted all the same). */
function quote(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
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
      // A later wake of the same game is folded into the one before when no chunk of it came between;
      // the wake left then carries no events (its listeners read both writes' from the store).
      const at = out.findLastIndex((m) => m.game === message.game);
      if (out[at]?.kind !== "events") out.push(message);
      else out[at] = { game: message.game, kind: "events" };
      continue;
    }
    const last = out.at(-1);
    if (
      message.kind === "chunk" &&
      last?.kind === "chunk" &&
      last.game === message.game &&
      last.tick === message.tick &&
      // Only a chunk that goes on where the one before ends (a replay starts again at 0).
      (last.at === undefined || message.at === undefined || last.at + last.text.length === message.at)
    )
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
