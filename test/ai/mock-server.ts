/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions
 * protocol, for provider tests: POST /v1/chat/completions (JSON, or SSE when
 * the request streams), POST /v1/embeddings, GET /v1/models. Each test
 * scripts its replies (a queue, then an optional handler) and asserts on the
 * recorded requests (headers, bodies).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body (e.g. broken JSON). */
  body?: string;
  /** Server-sent events: objects become `data: {json}` events, strings are sent as the data verbatim. */
  sse?: (object | string)[];
  /** Whether the SSE stream ends with `data: [DONE]` (default true). */
  done?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait this long before each SSE event. */
  eventDelayMs?: number;
  /** Never answer (until the client gives up). */
  hang?: boolean;
  /** Destroy the connection after this many SSE events (a stream that drops mid-answer). */
  dropAfter?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field in tests.
  body: any;
  raw: string;
}

export type Handler = (request: RecordedRequest) => MockReply | undefined;

export class MockServer {
  readonly requests: RecordedRequest[] = [];
  /** Models listed by GET /v1/models. */
  models = ["test-model"];
  /** Called when the queue is empty. */
  handler: Handler | null = null;
  /** Behave like servers without structured output: 400 on response_format json_schema (or json_object too). */
  rejects = { jsonSchema: false, jsonObject: false, streamOptions: false };
  private readonly queue: MockReply[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** The base URL to give the provider. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  static async start(): Promise<MockServer> {
    let mock: MockServer | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () =>
        mock!.handle(req.method ?? "GET", req.url ?? "/", req.headers, Buffer.concat(chunks), res),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    mock = new MockServer(server, (server.address() as AddressInfo).port);
    return mock;
  }

  /** Queues replies, answered in order by the next requests. */
  reply(...replies: MockReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Forgets the queue, the recorded requests, the handler and the rejections (call before each test). */
  reset(): void {
    this.queue.length = 0;
    this.requests.length = 0;
    this.handler = null;
    this.rejects = { jsonSchema: false, jsonObject: false, streamOptions: false };
  }

  /** Replies not used yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** The recorded requests to one path (e.g. "/v1/chat/completions"). */
  to(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    raw: Buffer,
    res: ServerResponse,
  ): void {
    const text = raw.toString("utf8");
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const request: RecordedRequest = { method, path, headers, body, raw: text };
    this.requests.push(request);
    if (method === "GET" && path === "/v1/models") {
      this.send(res, {
        json: { object: "list", data: this.models.map((id) => ({ id, object: "model", owned_by: "mock" })) },
      });
      return;
    }
    if (method !== "POST" || (path !== "/v1/chat/completions" && path !== "/v1/embeddings")) {
      this.send(res, { status: 404, json: { error: { message: `No route ${method} ${path}` } } });
      return;
    }
    const rejected = this.rejection(request);
    const reply = rejected ??
      this.queue.shift() ??
      this.handler?.(request) ?? {
        status: 500,
        json: { error: { message: "mock: no reply scripted for this request" } },
      };
    this.send(res, reply);
  }

  private rejection(request: RecordedRequest): MockReply | null {
    const format = request.body?.response_format?.type;
    if (
      (format === "json_schema" && this.rejects.jsonSchema) ||
      (format === "json_object" && this.rejects.jsonObject)
    )
      return apiError(400, `response_format type ${format} is not supported by this server`);
    if (request.body?.stream_options && this.rejects.streamOptions)
      return apiError(400, "Unrecognized request argument supplied: stream_options");
    return null;
  }

  /**
   * Runs `run` after `ms` unless the response closes first. The close listener goes with its timer:
   * a stream of many delayed events keeps at most one on the response, not one per event.
   */
  private later(ms: number, run: () => void, res: ServerResponse): void {
    const cancel = () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      res.off("close", cancel);
      if (!res.destroyed) run();
    }, ms);
    this.timers.add(timer);
    res.once("close", cancel);
  }

  private send(res: ServerResponse, reply: MockReply): void {
    if (reply.hang) return;
    if (reply.delayMs) {
      this.later(reply.delayMs, () => this.send(res, { ...reply, delayMs: 0 }), res);
      return;
    }
    const status = reply.status ?? 200;
    if (reply.sse) {
      res.writeHead(status, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        ...reply.headers,
      });
      const events = reply.sse.map((e) => (typeof e === "string" ? e : JSON.stringify(e)));
      if (reply.done !== false) events.push("[DONE]");
      const next = (i: number) => {
        if (res.destroyed) return;
        if (reply.dropAfter !== undefined && i >= reply.dropAfter) {
          res.destroy();
          return;
        }
        if (i >= events.length) {
          res.end();
          return;
        }
        const write = () => {
          res.write(`data: ${events[i]}\n\n`);
          next(i + 1);
        };
        if (reply.eventDelayMs) this.later(reply.eventDelayMs, write, res);
        else write();
      };
      next(0);
      return;
    }
    const body = reply.body ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));
    res.writeHead(status, {
      "content-type": "application/json",
      ...reply.headers,
    });
    res.end(body);
  }
}

// ---------------------------------------------------------------------------
// Reply builders
// ---------------------------------------------------------------------------

export interface Tokens {
  prompt_tokens: number;
  completion_tokens: number;
  /** What a server with a prompt cache adds (OpenAI): the prompt tokens it served from the cache. */
  prompt_tokens_details?: { cached_tokens: number };
}

const usageOf = (t: Tokens) => ({ ...t, total_tokens: t.prompt_tokens + t.completion_tokens });

/** A non-streamed chat completion answering `content`. */
export function completion(content: string, usage?: Tokens): MockReply {
  return {
    json: {
      id: "chatcmpl-mock",
      object: "chat.completion",
      created: 1,
      model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      ...(usage ? { usage: usageOf(usage) } : {}),
    },
  };
}

/** A chat completion whose content is `value` as JSON. */
export function jsonCompletion(value: unknown, usage?: Tokens): MockReply {
  return completion(JSON.stringify(value), usage);
}

/** A streamed chat completion: one chunk per delta, then a usage chunk when given. */
export function streamed(
  deltas: string[],
  options: { usage?: Tokens; eventDelayMs?: number; done?: boolean } = {},
): MockReply {
  const chunk = (delta: object, finish: string | null) => ({
    id: "chatcmpl-mock",
    object: "chat.completion.chunk",
    created: 1,
    model: "test-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const sse: object[] = [
    chunk({ role: "assistant", content: "" }, null),
    ...deltas.map((d) => chunk({ content: d }, null)),
    chunk({}, "stop"),
  ];
  if (options.usage)
    sse.push({
      id: "chatcmpl-mock",
      object: "chat.completion.chunk",
      created: 1,
      model: "test-model",
      choices: [],
      usage: usageOf(options.usage),
    });
  return {
    sse,
    ...(options.eventDelayMs ? { eventDelayMs: options.eventDelayMs } : {}),
    ...(options.done === false ? { done: false } : {}),
  };
}

/** An OpenAI-style error answer. */
export function apiError(
  status: number,
  message: string,
  options: { code?: string; headers?: Record<string, string> } = {},
): MockReply {
  return {
    status,
    json: { error: { message, type: "invalid_request_error", code: options.code ?? null } },
    ...(options.headers ? { headers: options.headers } : {}),
  };
}

/** An embeddings answer; `order` lists the indexes in the order they are sent (servers may shuffle). */
export function embeddings(
  vectors: number[][],
  order?: number[],
  usage?: { prompt_tokens: number },
): MockReply {
  const indexes = order ?? vectors.map((_, i) => i);
  return {
    json: {
      object: "list",
      model: "embed-model",
      data: indexes.map((index) => ({ object: "embedding", index, embedding: vectors[index] })),
      ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens } } : {}),
    },
  };
}
