import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { bearer, hashToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { type GameEventData, streamMessageSchema } from "../events.ts";
import { NarrationCursor } from "../live-narration.ts";
import { type Caller, route } from "../route.ts";
import { GameParams } from "../schemas.ts";
import { type BusMessage, carriedIds, type EventsMessage } from "../store/bus.ts";
import { type EventId, eventIdText, parseEventId, type Store, type StoredEvent } from "../store/store.ts";

export interface StreamLimits {
  /** Open streams per token. */
  perToken: number;
  /**
   * Open streams per client address, over all its tokens: anyone may create games (each with a
   * host token), so the cap per token alone does not bound one address's streams.
   */
  perAddress: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Read the store this often even without a wake-up (a NOTIFY lost while reconnecting). */
  pollMs: number;
}

const DEFAULTS: StreamLimits = { perToken: 4, perAddress: 128, heartbeatMs: 15_000, pollMs: 5_000 };
const BATCH = 200;
/** How long a new stream waits for its process to listen on the game's channel before its first read. */
const SUBSCRIBE_WAIT_MS = 2_000;

/** Set on a request whose event stream wrote its own log line (app.ts writes none for it then). */
export const STREAM_LOGGED = Symbol("taleforge.streamLogged");

/**
 * `GET /games/:id/events`: Server-Sent Events. Stored events carry their id;
 * a client that reconnects with `Last-Event-ID` (or `?after=`) gets every
 * event after it, so nothing is missed. Narration chunks stream live
 * (`event: narration`, no id, `at`: where the chunk starts in the text);
 * a stream that opens while a narration is being written gets it from its
 * first character (on any process: live-narration.ts), and the `turn` event
 * that follows carries the whole narration. Players get the events for everyone and their own; the
 * host gets all of them, the log entries included.
 */
export function eventRoutes(app: FastifyInstance, store: Store, given: Partial<StreamLimits> = {}) {
  const limits = { ...DEFAULTS, ...given };
  const open = new Map<string, number>();
  const openFrom = new Map<string, number>();
  const closers = new Set<() => void>();

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/events",
      summary: "The game's live events (Server-Sent Events), resumable with Last-Event-ID.",
      tag: "events",
      access: "member",
      params: GameParams,
      query: z.object({
        after: z
          .string()
          .regex(/^\d{1,15}(\.\d{1,9})?$/, "must be a whole number, 0 or more")
          .optional(),
      }),
      produces: "text/event-stream",
      // Each message's `event`, `id` and `data` (the payload, JSON), from the one union of game events.
      response: streamMessageSchema(),
      headers: [
        {
          name: "Last-Event-ID",
          description:
            "The id of the last event received (`12`, or `12.1` for a host-only event after it): the stream resumes after it.",
          schema: z.string().max(40),
        },
      ],
    },
    async ({ params, query, request, reply, caller }) => {
      // HEAD (Fastify answers it with the GET route): the stream's headers, no stream.
      if (request.method === "HEAD") {
        return reply.header("cache-control", "no-store").type("text/event-stream; charset=utf-8").send("");
      }
      const header = request.headers["last-event-id"];
      let last: EventId = parseEventId(typeof header === "string" ? header : undefined) ??
        parseEventId(query.after) ?? { seq: 0, sub: 0 };
      // An id this game never reached comes from another history (a store restored from a backup, a
      // client of another server): from the beginning, as for an id that is not one, so the client
      // misses nothing the game holds.
      const newest = await store.newestEventId(params.id);
      if (last.seq > newest.seq || (last.seq === newest.seq && last.sub > newest.sub))
        last = { seq: 0, sub: 0 };
      const key = hashToken(bearer(request.headers.authorization) ?? "");
      const count = open.get(key) ?? 0;
      if (count >= limits.perToken)
        throw new ApiError(
          "sse/too-many",
          "per-token",
          { max: limits.perToken },
          { per: "token", limit: limits.perToken },
        );
      // The client's address as the rate limits see it (through the trusted proxies only).
      const address = request.ip;
      const fromAddress = openFrom.get(address) ?? 0;
      if (fromAddress >= limits.perAddress)
        throw new ApiError(
          "sse/too-many",
          "per-address",
          { max: limits.perAddress },
          { per: "address", limit: limits.perAddress },
        );
      open.set(key, count + 1);
      openFrom.set(address, fromAddress + 1);
      const visible = audienceOf(caller);
      // A stream whose token stops reading the game ends with the event that says so: a kicked
      // player's or a freed seat's, and the host's once they hand the role on. Only one stored after
      // the stream opened: the seat's next player, or the next host, reads the earlier ones.
      const kickedHere = (event: StoredEvent) =>
        (caller.role === "player" &&
          event.kind === "player-kicked" &&
          (JSON.parse(event.data) as Partial<GameEventData<"player-kicked">>).player === caller.player.id) ||
        (Number(event.seq) > newest.seq &&
          ((caller.role === "player" &&
            event.kind === "seat-freed" &&
            (JSON.parse(event.data) as Partial<GameEventData<"seat-freed">>).player === caller.player.id) ||
            (caller.role === "host" && event.kind === "host-offered")));

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
      });
      raw.write(": taleforge events\n\n");

      let closed = false;
      let pumping = false;
      let again = false;
      /**
       * A read of the store ran to its end: every event up to `last` was written, and none after it
       * existed then. Only then may a wake's carried events be written without a read (`take`).
       */
      let synced = false;
      /** Writes one event (when the caller sees it); false when it ended the stream. */
      const deliver = (event: Pick<StoredEvent, "seq" | "sub" | "audience" | "kind" | "data">) => {
        last = { seq: Number(event.seq), sub: Number(event.sub) };
        if (!visible(event.audience)) return true;
        raw.write(`id: ${eventIdText(last)}\nevent: ${event.kind}\ndata: ${event.data}\n\n`);
        // A kicked player's stream ends with their kick: their token no longer reads the game.
        if (kickedHere(event as StoredEvent)) {
          close();
          return false;
        }
        return true;
      };
      const pump = async () => {
        if (closed) return;
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            let batch: StoredEvent[];
            do {
              batch = await store.events(params.id, last, BATCH);
              for (const event of batch) if (!deliver(event)) return;
            } while (batch.length === BATCH && !closed);
          } while (again && !closed);
          synced = true;
        } catch {
          // The store is unreachable for now: the next poll tries again.
          synced = false;
        } finally {
          pumping = false;
        }
      };
      /**
       * A wake's carried events (bus.ts EventsMessage), written without reading the store when they
       * come right after the stream's last event: every write that numbers its events after an event
       * already stored (a host's or a player's own, `sub`) sends its wake before any later write's, so
       * a stream that read to the end and then hears a write's events has every event before them.
       * false: read the store instead (a read under way, a gap, nothing read yet).
       */
      const take = (message: EventsMessage): boolean => {
        const events = message.events;
        if (events === undefined || events.length === 0 || message.last === undefined) return false;
        if (last.seq >= message.last) return synced; // already read
        if (pumping || !synced) return false;
        const ids = carriedIds(message);
        if (ids[0]!.seq !== last.seq + 1 || ids[0]!.sub !== 0) return false;
        events.forEach((event, i) => {
          if (!closed) deliver({ ...ids[i]!, audience: event.audience, kind: event.kind, data: event.data });
        });
        return true;
      };
      const narration = new NarrationCursor();
      const onMessage = (message: BusMessage) => {
        if (closed) return;
        if (message.kind === "chunk") writeChunk(message);
        else if (message.kind === "events" && !take(message)) void pump();
      };
      // The narration being written, from its first character on every (re)connection; a chunk after
      // a gap (this stream opened mid-narration) waits for the replay it asks for.
      const writeChunk = (message: Extract<BusMessage, { kind: "chunk" }>) => {
        const text = narration.fresh(message);
        if (text === null) {
          if (narration.ask()) askReplay();
          return;
        }
        if (text === "") return;
        const at = narration.offset - text.length;
        raw.write(
          text === message.text && at === message.at
            ? chunkMessage(message)
            : narrationMessage({ tick: message.tick, text, at }),
        );
      };
      const askReplay = () => void store.bus.publish({ game: params.id, kind: "replay" }).catch(() => {});
      // Listening before the first read (below): a wake published after that read reaches this stream.
      let unsubscribe = () => {};
      const subscribed = store.bus.subscribe(params.id, onMessage).then((off) => {
        if (closed) off();
        else unsubscribe = off;
      });
      const poll = setInterval(() => void pump(), limits.pollMs);
      const beat = setInterval(() => raw.write(": keep-alive\n\n"), limits.heartbeatMs);
      const close = () => {
        if (closed) return;
        closed = true;
        (request as unknown as Record<symbol, boolean>)[STREAM_LOGGED] = true;
        request.log.info(
          { req: request, res: reply, responseTime: reply.elapsedTime, lastEventId: eventIdText(last) },
          "request completed",
        );
        unsubscribe();
        clearInterval(poll);
        clearInterval(beat);
        open.set(key, (open.get(key) ?? 1) - 1);
        if ((open.get(key) ?? 0) <= 0) open.delete(key);
        openFrom.set(address, (openFrom.get(address) ?? 1) - 1);
        if ((openFrom.get(address) ?? 0) <= 0) openFrom.delete(address);
        closers.delete(close);
        raw.end();
      };
      closers.add(close);
      request.raw.on("close", close);
      raw.on("error", close);
      // At most SUBSCRIBE_WAIT_MS: a store that does not answer must not hold the stream's first read
      // (the poll then catches up with what a wake would have said).
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        subscribed,
        new Promise<void>((resolve) => {
          waited = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
        }),
      ]);
      clearTimeout(waited);
      await pump();
      // A step is under way (on this process or another): its narration so far, if it is writing one.
      const game = await store.game(params.id).catch(() => undefined);
      if (!closed && game?.lease_owner) askReplay();
    },
  );

  return {
    /** Ends every open stream (shutdown): clients reconnect elsewhere with their Last-Event-ID. */
    closeAll() {
      for (const close of [...closers]) close();
    },
  };
}

function narrationMessage(data: GameEventData<"narration">): string {
  return `event: narration\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A chunk as every stream that writes it whole writes it, serialised once per chunk, not once per
 * stream: a turn's chunks reach every stream following its game, on every process.
 */
const written = new WeakMap<object, string>();
function chunkMessage(message: Extract<BusMessage, { kind: "chunk" }>): string {
  let text = written.get(message);
  if (text === undefined) {
    text = narrationMessage({ tick: message.tick, text: message.text, at: message.at! });
    written.set(message, text);
  }
  return text;
}

function audienceOf(caller: Caller): (audience: string) => boolean {
  if (caller.role === "host") return () => true;
  if (caller.role === "player") {
    const id = caller.player.id;
    return (audience) => audience === "all" || audience === id;
  }
  return (audience) => audience === "all";
}
