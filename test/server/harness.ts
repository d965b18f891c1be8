import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import type { Provider } from "../../src/ai/provider.ts";
import { createSandbox, type SandboxHost } from "../../src/sandbox/index.ts";
import { createServer, type Server, type ServerOptions } from "../../src/server/app.ts";
import { silentLogger } from "../../src/server/logger.ts";
import type { NarratorFactory } from "../../src/server/runner.ts";
import { openStore } from "../../src/server/store/open.ts";
import type { World } from "../../src/world/schema/index.ts";
import { assertHolds, type Drift, rememberContract, sharedContract } from "./contract.ts";

/**
 * Real servers for the API tests: on 127.0.0.1, port 0, over the embedded
 * SQLite store in a fresh folder, or over PostgreSQL (a fresh schema per
 * run) when TALEFORGE_TEST_DATABASE_URL is set.
 */
export const DATABASE_URL = process.env.TALEFORGE_TEST_DATABASE_URL || undefined;
export const STORE_NAME = DATABASE_URL ? "postgresql" : "sqlite";

/** The example world's file, as a client uploads it. */
export const WORLD_TEXT = readFileSync(new URL("../../examples/harbor.world.json", import.meta.url), "utf8");

/** Where a server's store is: a SQLite folder, or a PostgreSQL database and schema. */
export type Where = { data?: string; database?: string; schema?: string };

export interface Running {
  url: string;
  server: Server;
  /** The store this server uses, to start a second process on the same one. */
  where: Where;
  close(): Promise<void>;
}

/** What `startServer` takes: the server's options over the tests' defaults, and a store to reuse. */
export type ServerStart = Partial<ServerOptions> & { where?: Where };

let sandbox: SandboxHost | undefined;
export function sharedSandbox(): SandboxHost {
  sandbox ??= createSandbox();
  return sandbox;
}

export async function closeSandbox(): Promise<void> {
  await sandbox?.close();
  sandbox = undefined;
}

export const offlineNarrator: NarratorFactory = (world: World, game) =>
  createOfflineProvider(world, { gameMode: game.gameMode }) as Provider;

/**
 * The OpenAI provider speaking to a local server (test/ai/mock-server.ts) at `baseUrl`: one try,
 * no wait before it, `timeoutMs` a call; the tests of a failing or slow narrator.
 */
export function remoteNarrator(world: World, baseUrl: string, timeoutMs: number): Provider {
  return createOpenAiProvider(world, {
    baseUrl,
    model: "test-model",
    timeoutMs,
    maxRetries: 0,
    retry: { sleep: async () => {} },
  });
}

/**
 * The offline narrator whose narrations `narrate` makes, given the offline provider to call: a test's
 * narrator that waits, fails or streams otherwise. The other methods are the offline provider's.
 */
export function offlineNarratorWith(
  narrate: (inner: Provider, ...call: Parameters<Provider["narrate"]>) => ReturnType<Provider["narrate"]>,
): NarratorFactory {
  return (world, game) => {
    const inner = offlineNarrator(world, game);
    return {
      ...inner,
      usage: () => inner.usage(),
      close: () => inner.close(),
      classify: (request, signal) => inner.classify(request, signal),
      judge: (request, signal) => inner.judge(request, signal),
      narrate: (request, onChunk, signal) => narrate(inner, request, onChunk, signal),
    };
  };
}

/**
 * The offline narrator, streaming each narration's first half (in pieces of 12 characters), then waiting for `gate()`
 * before the rest: a test opens streams while a narration is half written.
 */
export function gatedNarrator(gate: () => Promise<void>): NarratorFactory {
  return offlineNarratorWith(async (inner, request, onChunk, signal) => {
    const answer = await inner.narrate(request, undefined, signal);
    // Small pieces, so that half of them is a sentence cut in the middle.
    const chunks = answer.text.match(/[\s\S]{1,12}/g) ?? [];
    const half = Math.max(1, Math.floor(chunks.length / 2));
    for (const chunk of chunks.slice(0, half)) onChunk?.(chunk);
    await gate();
    for (const chunk of chunks.slice(half)) onChunk?.(chunk);
    return answer;
  });
}

export function freshStore(): Where {
  if (DATABASE_URL)
    return { database: DATABASE_URL, schema: `tf_test_${process.pid}_${randomBytes(4).toString("hex")}` };
  return { data: mkdtempSync(join(tmpdir(), "taleforge-server-")) };
}

export async function startServer(options: ServerStart = {}): Promise<Running> {
  const where = options.where ?? freshStore();
  const store = await openStore(where);
  const server = await createServer({
    store,
    narrator: offlineNarrator,
    scripts: sharedSandbox(),
    log: silentLogger(),
    perMinute: 100_000,
    actionsPerMinute: 100_000,
    sweepMs: 200,
    // The API tests upload their worlds without a token; test/server/uploads.test.ts tests the default.
    uploads: { open: true, perUploader: 100_000 },
    ...options,
  });
  // Every answer the tests get is held to this document (contract.ts): it must say what the server does.
  rememberContract(server.openApi());
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  const address = server.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    where,
    async close() {
      await server.close(5000);
    },
  };
}

/** Closes a server a test started, and drops its store. */
export async function stopServer(running: Running): Promise<void> {
  await running.close();
  await dropStore(running.where);
}

/**
 * The servers of a suite (call it inside `describe`): the function it gives starts one; after the
 * suite's tests every one is closed, then their stores are dropped and the shared sandbox closed.
 */
export function suiteServers(): (options?: ServerStart) => Promise<Running> {
  const servers: Running[] = [];
  after(async () => {
    for (const running of servers) await running.close();
    // Servers may share a store (`where`): each is dropped once, after all of them closed.
    const stores = new Map(servers.map((s) => [JSON.stringify(s.where), s.where]));
    for (const where of stores.values()) await dropStore(where);
    await closeSandbox();
  });
  return async (options = {}) => {
    const running = await startServer(options);
    servers.push(running);
    return running;
  };
}

/**
 * One server for a suite's tests (call it inside `describe`): started before them with `options`,
 * stopped after them as `suiteServers` does. Its fields are there once the tests run.
 */
export function suiteServer(options: ServerStart = {}): Running {
  const start = suiteServers();
  let running: Running | undefined;
  before(async () => {
    running = await start(options);
  });
  const started = (): Running => {
    if (!running) throw new Error("the suite's server starts before its tests");
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get server() {
      return started().server;
    },
    get where() {
      return started().where;
    },
    close: () => started().close(),
  };
}

/**
 * A server in another process (child-server.ts) on the same store, for the
 * tests across processes; `close` stops it with SIGTERM, as an operator does.
 */
export function startChildServer(
  where: Where,
  env: Record<string, string> = {},
): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./child-server.ts", import.meta.url))],
    {
      env: { ...process.env, TALEFORGE_CHILD_STORE: JSON.stringify(where), ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line)
        resolve({
          url: line.trim(),
          pid: child.pid!,
          async close() {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
            await exited;
          },
        });
    });
    child.once("exit", (code) => reject(new Error(`the child server exited (${code}) before listening`)));
  });
}

/** Drops what a test run made: the SQLite folder or the PostgreSQL schema. */
export async function dropStore(where: Where): Promise<void> {
  if (where.data) rmSync(where.data, { recursive: true, force: true });
  if (where.database && where.schema) {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: where.database });
    await client.connect();
    await client.query(`drop schema if exists ${where.schema} cascade`);
    await client.end();
  }
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read as loose JSON.
  json: any;
  text: string;
  headers: Headers;
}

/**
 * Asserts that an answer is the API's error shape (`code`, `message`, `details`, no stack trace)
 * with this status and code, and a message that says `says`; gives the error for further checks.
 */
export function assertRefused(answer: Answer, status: number, code: string, says: RegExp) {
  assert.equal(answer.status, status, answer.text);
  const error = (answer.json as { error: { code: string; message: string; details: unknown } }).error;
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "message"]);
  assert.equal(error.code, code);
  assert.match(error.message, says, `${code}: ${error.message}`);
  assert.doesNotMatch(answer.text, /\bat .+\.(ts|js):\d+/, "no stack trace");
  return error as { code: string; message: string; details: Record<string, unknown> };
}

/** Every answer a client got, for the scans for hidden strings. */
export class Client {
  readonly seen: { route: string; text: string }[] = [];
  constructor(
    readonly base: string,
    public token?: string,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const response = await fetch(`${this.base}${path}`, init);
    const text = await response.text();
    this.seen.push({ route: `${method} ${path}`, text });
    assertHolds(
      sharedContract()?.check(method, path, response.status, response.headers.get("content-type"), text),
    );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  }
  get(path: string) {
    return this.call("GET", path);
  }
  post(path: string, body?: unknown) {
    return this.call("POST", path, body ?? {});
  }
}

/** A client seen from `address` (the server trusts X-Forwarded-For from the loopback, as behind a proxy). */
export class From extends Client {
  constructor(
    base: string,
    readonly address: string,
    token?: string,
  ) {
    super(base, token);
  }
  override call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.call(method, path, body, { ...headers, "x-forwarded-for": this.address });
  }
}

/** The example world with a trigger whose script spends its phase's whole CPU budget every turn. */
export function loopingWorld(): string {
  const world = JSON.parse(WORLD_TEXT);
  world.triggers.zz_spin = {
    name: "zz_spin",
    conditions: [],
    effects: [],
    recurring: true,
    script: "// Spends its phase's whole CPU budget.\nfor (;;) {}",
  };
  return JSON.stringify(world);
}

/** Stores `text` (the example world by default) as anyone may: answers its hash. */
export async function uploadWorld(url: string, text = WORLD_TEXT): Promise<string> {
  const stored = await new Client(url).call("POST", "/worlds", text);
  assert.ok(stored.status === 200 || stored.status === 201, stored.text);
  return stored.json.hash as string;
}

/** What `joinedGame` and `startedGame` take. */
export interface GameStart {
  /** Adds to the creation's body (seed, narrator...). */
  body?: Record<string, unknown>;
  /** One new character each ("Ann" alone by default). */
  names?: string[];
  /** The characters as a join asks for them (`{ premade }`...), instead of `names`. */
  characters?: Record<string, unknown>[];
  /** Every client a `From` this address. */
  address?: string;
}

/** A game of `world` (a stored world's hash) created and joined by its players, in its lobby. */
export async function joinedGame(url: string, world: string, options: GameStart = {}) {
  const client = (token?: string) =>
    options.address === undefined ? new Client(url, token) : new From(url, options.address, token);
  const maker = client();
  const created = (await maker.post("/games", { world, ...options.body })).json;
  const tokens: string[] = [];
  const playerIds: string[] = [];
  const characters = options.characters ?? (options.names ?? ["Ann"]).map((name) => ({ name }));
  for (const character of characters) {
    const joined = await maker.post("/games/join", { invite: created.invite, character });
    assert.equal(joined.status, 201, joined.text);
    tokens.push(joined.json.token as string);
    playerIds.push(joined.json.playerId as string);
  }
  return {
    id: created.id as string,
    host: client(created.hostToken),
    hostToken: created.hostToken as string,
    players: tokens.map((t) => client(t)),
    tokens,
    playerIds,
  };
}

/** The preamble the server tests share: a `joinedGame`, started. */
export async function startedGame(url: string, world: string, options: GameStart = {}) {
  const game = await joinedGame(url, world, options);
  const started = await game.host.post(`/games/${game.id}/start`);
  assert.equal(started.status, 200, started.text);
  return game;
}

/** A started game of the example world (seed 7) with `names` as its players (Ann alone by default). */
export async function exampleGame(
  url: string,
  options: { names?: string[]; body?: Record<string, unknown> } = {},
) {
  return startedGame(url, await uploadWorld(url), {
    body: { seed: 7, ...options.body },
    names: options.names ?? ["Ann"],
  });
}

/** Every player of `game` acts `text`, and the turn runs: answers the game at its new tick. */
export async function playTurn(game: { id: string; host: Client; players: Client[] }, text: string) {
  const before = (await game.host.get(`/games/${game.id}`)).json;
  for (const player of game.players) {
    const sent = await player.post(`/games/${game.id}/actions`, { text, idempotencyKey: randomUUID() });
    assert.equal(sent.status, 202, sent.text);
  }
  return (
    await eventually(
      () => game.host.get(`/games/${game.id}`),
      (a) => a.json.tick === before.tick + 1,
    )
  ).json;
}

export interface SseEvent {
  id?: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: event payloads are read as loose JSON.
  data: any;
}

/** A minimal SSE client: collects events until closed. */
export function listen(url: string, token: string, lastEventId?: string) {
  const events: SseEvent[] = [];
  const waiters: { test: (e: SseEvent[]) => boolean; resolve: () => void }[] = [];
  let buffer = "";
  const check = () => {
    for (const w of [...waiters])
      if (w.test(events)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  let raw = "";
  /** The first event that differs from the OpenAPI document's stream messages (contract.ts). */
  let drift: Drift | undefined;
  let markEnded: () => void = () => {};
  /** Resolves when the server ends the stream. */
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const request = http.get(url, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
  });
  const ready = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      resolve(response.statusCode ?? 0);
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event: SseEvent = { event: "message", data: undefined };
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const [field, ...rest] = line.split(": ");
            const value = rest.join(": ");
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value;
            else if (field === "data") data += value;
          }
          if (data === "") continue;
          event.data = JSON.parse(data);
          events.push(event);
          drift ??= sharedContract()?.checkEvent(event);
        }
        check();
      });
      response.on("end", () => markEnded());
      response.on("error", () => {});
    });
    request.on("error", reject);
  });
  return {
    events,
    ready,
    ended,
    get raw() {
      return raw;
    },
    until(test: (e: SseEvent[]) => boolean, ms = 60_000): Promise<void> {
      assertHolds(drift);
      if (test(events)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `SSE: no matching event within ${ms} ms; got ${events.map((e) => e.event).join(",")}`,
              ),
            ),
          ms,
        );
        waiters.push({
          test,
          resolve: () => {
            clearTimeout(timer);
            if (drift) reject(new Error(`The event drifts from the OpenAPI document: ${drift.problem}`));
            else resolve();
          },
        });
      });
    },
    close() {
      request.destroy();
    },
  };
}

/** Polls until `test` holds (a game reaching a tick...), failing after `ms`. */
export async function eventually<T>(
  read: () => Promise<T>,
  test: (value: T) => boolean,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not reached within ${ms} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * POSTs a file's bytes as JSON from another process (curl), as a real client would: this process's
 * event loop stays the server's alone. The answer's status, Retry-After and body.
 */
export function postFileByCurl(
  url: string,
  file: string,
  headers: string[] = [],
): Promise<{ status: number; retryAfter: string | null; json: Answer["json"] }> {
  const args = ["-s", "-D", "-", "-X", "POST", ...headers.flatMap((h) => ["-H", h])];
  args.push("-H", "content-type: application/json", "-H", "expect:", "--data-binary", `@${file}`, url);
  return new Promise<string>((resolve, reject) => {
    execFile("curl", args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  }).then((out) => {
    const [head = "", body = ""] = out.split("\r\n\r\n");
    return {
      status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
      retryAfter: /^retry-after: (\d+)/im.exec(head)?.[1] ?? null,
      json: JSON.parse(body),
    };
  });
}
