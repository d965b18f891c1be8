import { api } from "./api.ts";

export interface StreamEvent {
  /**
   * Stored events carry an id (`12`; a host-only event after the twelfth, `12.1`); narration chunks
   * do not.
   */
  id: string | undefined;
  event: string;
  data: unknown;
}

export interface StreamHandlers {
  onEvent(event: StreamEvent): void;
  /**
   * true while connected; false while waiting to reconnect, with why (`status`: the HTTP status that
   * refused the stream, 0 when the network failed) and when it tries again (`retryInMs`).
   */
  onConnection(connected: boolean, trouble?: { status: number; retryInMs: number }): void;
}

/**
 * The game's Server-Sent Events over fetch (EventSource cannot send the
 * Authorization header). It remembers the last stored event's id and, when
 * the connection drops, reconnects with `?after=` that id: every stored
 * event arrives exactly once.
 */
export function openStream(game: string, token: string, after: string, handlers: StreamHandlers) {
  let last = after;
  let stopped = false;
  let controller = new AbortController();
  let delay = 500;

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      let status = 0;
      try {
        const response = await api.events(game, token, last, controller.signal);
        status = response.status;
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        handlers.onConnection(true);
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const parsed = parseBlock(block);
            if (!parsed) continue;
            if (parsed.id !== undefined) {
              if (!isAfter(parsed.id, last)) continue;
              last = parsed.id;
            }
            handlers.onEvent(parsed);
          }
        }
      } catch {
        // Dropped or refused: wait and reconnect from the last id.
      }
      if (stopped) break;
      handlers.onConnection(false, { status: status === 200 ? 0 : status, retryInMs: delay });
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 8000);
    }
  };
  void run();
  return {
    close() {
      stopped = true;
      controller.abort();
    },
  };
}

/** Whether event id `a` comes after `b` (`12.2` after `12.1`, `12.10` after `12.9`, `13` after both). */
function isAfter(a: string, b: string): boolean {
  const [as, asub = 0] = a.split(".").map(Number);
  const [bs, bsub = 0] = b.split(".").map(Number);
  return as! > bs! || (as === bs && asub > bsub);
}

function parseBlock(block: string): StreamEvent | undefined {
  let id: string | undefined;
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data += data === "" ? value : `\n${value}`;
  }
  if (data === "") return undefined;
  try {
    return { id, event, data: JSON.parse(data) as unknown };
  } catch {
    return undefined;
  }
}

/** A piece of the narration being written: `at` is where it starts in the tick's text. */
export interface NarrationChunk {
  tick: number;
  text: string;
  at?: number;
}

/**
 * The narration being written with a chunk added. A chunk at 0 starts it again (after a reconnection
 * the server sends the text so far from its first character), one at the end goes on, and one past
 * the end (a gap) is left out: the server replays the text so far instead.
 */
export function withChunk(
  current: { tick: number; text: string } | null,
  chunk: NarrationChunk,
): { tick: number; text: string } | null {
  const { tick, text, at } = chunk;
  if (current && current.tick === tick) {
    if (at === undefined) return { tick, text: current.text + text };
    if (at > current.text.length) return current;
    return { tick, text: current.text.slice(0, at) + text };
  }
  return at === undefined || at === 0 ? { tick, text } : current;
}
