import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, type GameEvent } from "./api.ts";
import { applyEvent, EMPTY, type GameModel, markSubmitted, seqOf } from "./game-state.ts";
import { playerMessage, streamTrouble } from "./messages.ts";
import { openStream, type StreamEvent } from "./sse.ts";

export interface UseGame extends GameModel {
  /** The event stream is up. */
  connected: boolean;
  /** Why the stream is down (shown beside "reconnecting…"), "" while it is up. */
  trouble: string;
  /** The game could not be read (the page keeps what it had and says so). */
  readError: string;
  /** Reads the whole game again (the page's own actions do not need it: their events come). */
  resync(): Promise<void>;
  /** Marks the caller's own action as submitted, once the server acknowledged it (its event follows). */
  submitted(playerId: string, tick: number): void;
}

/**
 * A game as the play page shows it, kept by its events: the game, its transcript and its notes are
 * read once, then each event of the stream is applied to them (game-state.ts), as the server
 * applied it. They are read again only to resynchronise: a gap in the event ids (a step this page
 * did not see) or an event the page cannot place. `hostToken`: a host who also plays follows the
 * host's stream too, for the cause of a failed turn (sent to the host only).
 */
export function useGame(
  id: string,
  token: string | undefined,
  hostToken?: string,
  /** Sees every message of the player's stream first (the host role moving: host-role.ts). */
  onMessage?: (message: StreamEvent) => void,
): UseGame {
  const [model, setShown] = useState<GameModel>(EMPTY);
  const [connected, setConnected] = useState(false);
  const [trouble, setTrouble] = useState("");
  const [readError, setReadError] = useState("");
  // The model as the events left it: several events may come before the page renders again, so
  // each is applied to the one before it, not to the last one rendered.
  const modelRef = useRef(model);
  const setModel = useCallback((next: GameModel) => {
    modelRef.current = next;
    setShown(next);
  }, []);
  /** Events that came while the game was being read: applied on top of what was read. */
  const pending = useRef<GameEvent[] | null>(null);
  const lastSeq = useRef(-1);

  const resync = useCallback(async (): Promise<void> => {
    if (!token) return;
    pending.current ??= [];
    try {
      // The game first: its eventId is older than what the transcript and notes read after it hold.
      const game = await api.game(id, token);
      const [transcript, narrative] = await Promise.all([api.transcript(id, token), api.notes(id, token)]);
      let next: GameModel = {
        ...modelRef.current,
        game,
        steps: transcript.transcript,
        notes: narrative.notes,
      };
      // A failure of a turn that has run since (on any process) is over.
      if (next.failure && game.tick >= next.failure.tick && next.failure.tick > 0)
        next = { ...next, failure: null };
      for (const event of pending.current ?? []) {
        const applied = applyEvent(next, event);
        if (applied !== "resync") next = applied;
        else if (event.kind === "turn-retried") next = { ...next, live: null };
      }
      // The narration being written is shown until its step is stored (checked after the events that
      // came during the read: a retried turn's chunks may arrive after its step is stored).
      const written = new Set(
        next.steps.filter((s) => s.kind === "turn" || s.kind === "opening").map((s) => s.tick),
      );
      if (next.live && written.has(next.live.tick)) next = { ...next, live: null };
      setModel(next);
      setReadError("");
    } catch (e) {
      setReadError(playerMessage(e, "read").text);
    } finally {
      pending.current = null;
    }
  }, [id, token]);

  const apply = useCallback(
    (event: GameEvent) => {
      if (pending.current) {
        pending.current.push(event);
        return;
      }
      const applied = applyEvent(modelRef.current, event);
      if (applied === "resync") {
        // A retried turn is told again as the game's next tick: its telling is over once it is stored.
        if (event.kind === "turn-retried") setModel({ ...modelRef.current, live: null });
        void resync();
      } else setModel(applied);
    },
    [resync],
  );

  useEffect(() => {
    if (!token) return;
    let stream: { close(): void } | undefined;
    let hostStream: { close(): void } | undefined;
    let closed = false;
    void (async () => {
      await resync();
      if (closed) return;
      const from = modelRef.current.game?.eventId ?? "0";
      lastSeq.current = seqOf(from);
      stream = openStream(id, token, from, {
        onConnection: (up, why) => {
          setConnected(up);
          setTrouble(up || !why ? "" : streamTrouble(why.status));
        },
        onEvent: (message) => {
          onMessage?.(message);
          if (message.id !== undefined) {
            const seq = seqOf(message.id);
            // Every event for everyone has the next number: a jump means events this page missed.
            const gap = seq > lastSeq.current + 1;
            lastSeq.current = Math.max(lastSeq.current, seq);
            if (gap) {
              void resync();
              return;
            }
          }
          apply({ kind: message.event, data: message.data } as GameEvent);
        },
      });
      // A host who also plays reads the game as their player; the cause of a failed turn is sent to the
      // host token only, so that token's stream is followed too (for that event alone).
      if (hostToken && hostToken !== token)
        hostStream = openStream(id, hostToken, from, {
          onConnection: () => {},
          onEvent: (message) => {
            if (message.event === "turn-failure")
              apply({ kind: "turn-failure", data: message.data } as GameEvent);
          },
        });
    })();
    return () => {
      closed = true;
      stream?.close();
      hostStream?.close();
    };
  }, [id, token, hostToken]);

  const submitted = useCallback((playerId: string, tick: number) => {
    setModel(markSubmitted(modelRef.current, playerId, tick));
  }, []);

  return { ...model, connected, trouble, readError, resync, submitted };
}
