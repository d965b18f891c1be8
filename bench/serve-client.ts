import { Agent, type IncomingMessage, request } from "node:http";

/**
 * The serve benchmark's players' client: their actions and their event streams on `node:http` with one
 * keep-alive agent. It shares the machine with the server it measures, so it should cost little: undici's
 * `fetch` (WHATWG streams, a TextDecoder, a Response per call) cost 1.2-1.9 ms of CPU per turn on the
 * benchmark's machine (docs/benchmarks.md, issue 38 round 5). The requests carry the same method, path,
 * body, `authorization` and `content-type` as before; a connection is kept and reused as fetch's pool does.
 */
const agent = new Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" });

/** A JSON call: answers the status and the parsed answer (null when the answer is not JSON). */
export function send(
  url: string,
  method: string,
  path: string,
  token?: string,
  body?: string,
): Promise<{ status: number; answer: Record<string, unknown> | null }> {
  const headers: Record<string, string | number> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, agent }, (res) => {
      res.setEncoding("utf8");
      let text = "";
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => {
        let answer: Record<string, unknown> | null = null;
        try {
          answer = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // Not JSON: the caller reports the status.
        }
        resolve({ status: res.statusCode ?? 0, answer });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** An event stream's message as it arrives: its `event` name and its `data` line. */
export type StreamMessage = { event: string | undefined; data: string | undefined };

/**
 * Opens `GET path` as an event stream (Server-Sent Events) with the player's token and calls `onMessage`
 * with each message whose event is one of `events` (the others are not parsed further); resolves once the
 * stream's headers are in. `close` drops the connection.
 */
export function stream(
  url: string,
  path: string,
  token: string,
  events: ReadonlySet<string>,
  onMessage: (message: StreamMessage) => void,
): Promise<{ close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: "GET", headers: { authorization: `Bearer ${token}` }, agent },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${path}: ${res.statusCode}`));
          return;
        }
        res.setEncoding("utf8");
        let text = "";
        res.on("data", (chunk: string) => {
          text = text === "" ? chunk : text + chunk;
          let start = 0;
          let end = text.indexOf("\n\n");
          while (end >= 0) {
            const message = messageOf(text, start, end, events);
            if (message) onMessage(message);
            start = end + 2;
            end = text.indexOf("\n\n", start);
          }
          text = start === 0 ? text : text.slice(start);
        });
        res.on("error", () => {});
        resolve({ close: () => req.destroy() });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * The message in text[start, end): its first `event:` and `data:` lines, as the fetch client's
 * /^event: (.*)$/m and /^data: (.*)$/m read them; null when its event is not one of `events`.
 */
function messageOf(
  text: string,
  start: number,
  end: number,
  events: ReadonlySet<string>,
): StreamMessage | null {
  const event = field(text, start, end, "event: ");
  if (event === undefined || !events.has(event)) return null;
  return { event, data: field(text, start, end, "data: ") };
}

function field(text: string, start: number, end: number, name: string): string | undefined {
  let at = start;
  while (at < end) {
    const lineEnd = text.indexOf("\n", at);
    const stop = lineEnd < 0 || lineEnd > end ? end : lineEnd;
    if (text.startsWith(name, at)) return text.slice(at + name.length, stop);
    at = stop + 1;
  }
  return undefined;
}
