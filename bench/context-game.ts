import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAiProvider } from "../src/ai/openai/index.ts";
import type { PlayerSpec } from "../src/engine/characters.ts";
import { createSession } from "../src/engine/session.ts";

/**
 * A game played the way a player with a model plays it (issue 39): the real
 * OpenAI-compatible provider against a local OpenAI-protocol server on
 * 127.0.0.1 that records every request and answers like a plausible model
 * (a story of a few hundred characters, an intent, verdicts, a summary). Used
 * by test/ai/context.test.ts and the `context` benchmark.
 */

export type CallKind = "intent" | "judge" | "summary" | "narration" | "opening";

export interface RecordedCall {
  kind: CallKind;
  messages: { role: string; content: string }[];
  body: Record<string, unknown>;
}

export interface GameOptions {
  turns: number;
  /** Players; default one custom character. */
  players?: PlayerSpec[];
  storyStart?: string;
  contextTokens?: number;
  /** A function of the turn number giving each player's action; default a rotating list. */
  actions?: (turn: number, players: string[]) => { player: string; text: string }[];
}

const ACTIONS = [
  "I look around carefully and listen.",
  "I ask the nearest person what happened here last night.",
  "I search the ground for tracks.",
  "I read the notice pinned by the door.",
  "I walk on along the road, keeping to the shadows.",
  "I offer to help with the work in exchange for news.",
];

const SENTENCES = [
  "Wind worries at the eaves and carries the smell of smoke from somewhere below.",
  "A door bangs twice, then goes still, and somebody laughs too loudly in the next room.",
  "The light is thin and grey, the kind that makes every face look tired.",
  "Footprints cross the mud, deep at the heel, as if whoever made them was carrying something heavy.",
  "Someone has scratched a mark into the post: three lines and a circle, fresh enough to show pale wood.",
  "Far off a bell rings, slow and uneven, and the people nearby stop to count the strokes.",
];

/** A story of about 500 characters, different every call. */
function storyFor(n: number): string {
  const parts: string[] = [`Turn story ${n}.`];
  for (let i = 0; i < 6; i++) parts.push(SENTENCES[(n * 7 + i * 3) % SENTENCES.length]!);
  return parts.join(" ");
}

export class RecordingServer {
  readonly calls: RecordedCall[] = [];
  private stories = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<RecordingServer> {
    let self: RecordingServer | null = null;
    const server = createServer((req, res) => self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new RecordingServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return self;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
      const messages = (body.messages ?? []) as RecordedCall["messages"];
      const schema = (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema
        ?.name;
      const json = (value: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: JSON.stringify(value) },
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5 },
          }),
        );
      };
      if (schema === "taleforge_intent") {
        this.calls.push({ kind: "intent", messages, body });
        json({ intent: "other", target: null, confidence: 0.9, leader: null });
        return;
      }
      if (schema === "taleforge_judge") {
        this.calls.push({ kind: "judge", messages, body });
        const count = (messages.at(-1)?.content.match(/^\d+\. \[/gm) ?? []).length;
        json({
          verdicts: Array.from({ length: count }, (_, i) => ({
            question: i + 1,
            evidence: "none",
            passed: false,
            players: [],
          })),
        });
        return;
      }
      if (schema === "taleforge_summary") {
        this.calls.push({ kind: "summary", messages, body });
        json({
          summary: `The story so far, folded ${this.calls.length} calls in: the party travels and asks.`,
        });
        return;
      }
      const opening = messages.some(
        (m) => m.role === "system" && m.content.includes("opening of a new game"),
      );
      this.calls.push({ kind: opening ? "opening" : "narration", messages, body });
      const story = storyFor(++this.stories);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const event = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(event({ content: story.slice(0, 40) }, null));
      res.write(event({ content: story.slice(40) }, null));
      res.write(event({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  }
}

/** Plays `options.turns` turns of `world` against `server`; returns the players' names. */
export async function playRecorded(
  world: unknown,
  server: RecordingServer,
  options: GameOptions,
): Promise<string[]> {
  const players = options.players ?? [{ name: "Ana" }];
  const names = players.map((p) => ("premade" in p ? p.premade : p.name));
  const ai = createOpenAiProvider(world as never, {
    baseUrl: server.url,
    model: "recorder",
    timeoutMs: 10_000,
    maxRetries: 0,
    ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
  });
  try {
    const session = await createSession(world, {
      ai,
      players,
      seed: 39,
      validate: false,
      ...(options.storyStart !== undefined ? { storyStart: options.storyStart } : {}),
    });
    const actionsOf =
      options.actions ??
      ((turn: number, who: string[]) =>
        who.map((player, i) => ({ player, text: ACTIONS[(turn + i * 2) % ACTIONS.length]! })));
    for (let turn = 1; turn <= options.turns; turn++) await session.turn({ actions: actionsOf(turn, names) });
  } finally {
    await ai.close();
  }
  return names;
}

/** The characters two texts share from their start. */
export function sharedPrefix(a: string, b: string): number {
  let n = 0;
  const max = Math.min(a.length, b.length);
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** A request's messages as one text, as a server's prefix cache sees them (roles included). */
export function requestText(call: RecordedCall): string {
  return call.messages.map((m) => `<${m.role}>\n${m.content}\n`).join("");
}
