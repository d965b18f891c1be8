import { STATUS_CODES } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import { ENGINE_VERSION } from "../engine/index.ts";
import type { ScriptRunner } from "../engine/ports.ts";
import { GameCore } from "./core.ts";
import { ApiError } from "./errors.ts";
import type { Logger } from "./logger.ts";
import { openApiDocument } from "./openapi.ts";
import { MinuteWindows, rateKey } from "./rate-keys.ts";
import { routesOf } from "./route.ts";
import { controlRoutes } from "./routes/controls.ts";
import { eventRoutes, STREAM_LOGGED, type StreamLimits } from "./routes/events.ts";
import { gameRoutes } from "./routes/games.ts";
import { historyRoutes } from "./routes/history.ts";
import { partyRoutes } from "./routes/party.ts";
import { storageRoutes } from "./routes/storage.ts";
import { tableRoutes } from "./routes/table.ts";
import { DEFAULT_UPLOADS, type UploadPolicy, worldRoutes } from "./routes/worlds.ts";
import { type NarratorFactory, Runner } from "./runner.ts";
import type { OpenStore } from "./store/open.ts";
import { Store } from "./store/store.ts";
import { isStoreUnavailable } from "./store/unavailable.ts";
import { SWEEP_MS, Sweeper } from "./sweeper.ts";
import { webRoutes } from "./web.ts";
import { DEFAULT_POOL, type PoolLimits, WorkPool } from "./work/pool.ts";
import { WorldCache } from "./worlds.ts";

export interface ServerOptions {
  store: OpenStore;
  narrator: NarratorFactory;
  scripts: ScriptRunner | undefined;
  log: Logger;
  /** This process's name in leases and logs. */
  process?: string;
  /** Requests per minute per token (or address, without one). */
  perMinute?: number;
  /**
   * Requests per minute per client address, over all its tokens together (default twice `perMinute`:
   * the tokens of the games one address creates count here too).
   */
  perAddressPerMinute?: number;
  /** Actions per minute per token on the submit route. */
  actionsPerMinute?: number;
  /** Request body limit; world uploads have their own. */
  bodyLimit?: number;
  worldLimit?: number;
  /** An origin allowed by CORS; CORS is off without it. */
  cors?: string;
  /**
   * Which peers' X-Forwarded-For is believed (the client's address for the per-address limit): proxy
   * addresses or CIDRs, comma-separated, or "loopback" (the default: a proxy on this machine).
   */
  trustProxy?: string;
  leaseMs?: number;
  /** How long a quest answer waits for a step of its game in flight (default 30 s). */
  answerWaitMs?: number;
  /** Steps (turns, openings, quest answers) this process runs at once; the others queue (0: no limit). */
  maxSteps?: number;
  /** How often this process looks for turns that are due (timeouts, crashed claims). 0: never. */
  sweepMs?: number;
  /** The clock of the party votes' times, epoch ms (default Date.now; tests move it on instead of waiting). */
  clock?: () => number;
  /** The waits before a failed turn runs again by itself (src/server/retry.ts). */
  retryDelaysMs?: readonly number[];
  streams?: Partial<StreamLimits>;
  /** Who may upload worlds, and how many (routes/worlds.ts; default: a token, 5 per host token). */
  uploads?: Partial<UploadPolicy>;
  /** The work threads for world checks and maps (work/pool.ts). */
  workers?: Partial<PoolLimits>;
  /** The built browser app served at `/` (default: dist/web beside the sources). */
  webRoot?: string;
  /**
   * The most turns GET /games/:id/playtest replays inside a request (default 500, about 2 s of
   * one event loop, docs/benchmarks.md); a longer game is answered `game/playtest-too-long`.
   */
  playtestMaxTurns?: number;
}

export interface Server {
  app: FastifyInstance;
  store: Store;
  runner: Runner;
  /** The OpenAPI document of this server's routes (what `/openapi.json` answers). */
  openApi(): ReturnType<typeof openApiDocument>;
  /** Stops accepting, finishes the steps in flight (at most `graceMs`), closes the store. */
  close(graceMs?: number): Promise<void>;
}

/**
 * One log line per request, written when it ends, with the request, the status
 * and the time taken (Fastify's default is two: one as it comes in, one as it
 * ends). An event stream writes its own line when it closes (routes/events.ts),
 * since a stream the client drops never "finishes".
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (STREAM_LOGGED in request) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}

/**
 * Fastify's own schema compilers, required from Fastify's place (they are its dependencies, not ours)
 * the first time a route with a Fastify schema needs them, instead of by Fastify when it starts.
 */
type Compilers = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;
type ValidatorFactory = NonNullable<Compilers["buildValidator"]>;
type SerializerFactory = NonNullable<Compilers["buildSerializer"]>;
export const LAZY_COMPILERS: Compilers = (() => {
  let fastifyRequire: NodeJS.Require | undefined;
  const load = <T>(name: string): T => {
    fastifyRequire ??= createRequire(createRequire(import.meta.url).resolve("fastify"));
    return (fastifyRequire(name) as () => T)();
  };
  let validator: ValidatorFactory | undefined;
  let serializer: SerializerFactory | undefined;
  const buildValidator: ValidatorFactory = (...args) => {
    validator ??= load<ValidatorFactory>("@fastify/ajv-compiler");
    return validator(...args);
  };
  const buildSerializer: SerializerFactory = (...args) => {
    serializer ??= load<SerializerFactory>("@fastify/fast-json-stringify-compiler");
    return serializer(...args);
  };
  return { buildValidator, buildSerializer };
})();

/** Rebuilt per server; the route list is filled by the route modules. */
export async function createServer(options: ServerOptions): Promise<Server> {
  const store = new Store(options.store);
  const worlds = new WorldCache(store);
  const pool = new WorkPool({ ...DEFAULT_POOL, ...options.workers });
  const processName = options.process ?? `${process.pid}`;
  const runner = new Runner({
    store,
    worlds,
    narrator: options.narrator,
    scripts: options.scripts,
    process: processName,
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.answerWaitMs !== undefined ? { answerWaitMs: options.answerWaitMs } : {}),
    ...(options.retryDelaysMs !== undefined ? { retryDelaysMs: options.retryDelaysMs } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    log: options.log,
  });
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    // Not `true`: a client talking to the server directly could then pick its own address.
    trustProxy: options.trustProxy ?? "loopback",
    return503OnClosing: true,
    logController: new OneLinePerRequest(),
    // On close, idle connections are closed at once; a request in flight (one waiting for its step) gets its answer.
    forceCloseConnections: "idle",
    // Fastify's JSON-schema compilers (ajv, fast-json-stringify: some 100 ms of loading at every start)
    // are loaded only if a route ever declares a Fastify schema; the routes validate with zod (route.ts).
    schemaController: { compilersFactory: LAZY_COMPILERS },
    // A quest name may be 200 characters, more once percent-encoded (Fastify's default is 100).
    routerOptions: { maxParamLength: 1000 },
    // Fastify's own answers to a URL it cannot route (bad encoding, a parameter over the length above).
    frameworkErrors: (_error, _request, reply) => {
      (reply as unknown as { code(n: number): { type(t: string): { send(b: unknown): void } } })
        .code(400)
        .type("application/json")
        .send(new ApiError("request/invalid", "url").toJSON());
    },
    // What Node's HTTP parser refuses before Fastify routes it (headers over 16 KiB, a request that is
    // not HTTP, one that arrives too slowly) answers in the same shape as every other error.
    clientErrorHandler: (error: Error & { code?: string }, socket: Duplex) => {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      const failure =
        error.code === "HPE_HEADER_OVERFLOW"
          ? new ApiError("request/headers-too-large", "header-overflow")
          : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
            ? new ApiError("request/invalid", "too-slow")
            : new ApiError("request/invalid", "unreadable");
      if (socket.writable) {
        const body = JSON.stringify(failure.toJSON());
        socket.write(
          `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
  }) as unknown as FastifyInstance;
  let ready = false;
  // Bodies are JSON (the world upload reads its own text from it): a text/plain body is refused with
  // request/unsupported-type, as any other type is, rather than read as a string.
  app.removeContentTypeParser("text/plain");

  // JSON bodies are kept as text too: a world's hash is the hash of the bytes uploaded.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    (request as { rawText?: string }).rawText = text;
    if (text.trim() === "") return done(null, undefined);
    // A world upload (up to 8 MiB) is read by the world loader in a work thread, never parsed here.
    if (request.method === "POST" && request.url.split("?")[0] === "/worlds") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      // Where it went wrong (V8 says "at position N"), as a line and column a caller can find.
      const reason = String((error as Error).message);
      const at =
        /position (\d+)/.exec(reason)?.[1] ?? (/end of JSON/.test(reason) ? String(text.length) : undefined);
      if (at === undefined) return done(new ApiError("request/malformed-json", "json"), undefined);
      const before = text.slice(0, Number(at)).split("\n");
      const line = before.length;
      const column = (before.at(-1)?.length ?? 0) + 1;
      done(new ApiError("request/malformed-json", "json-at", { line, column }, { line, column }), undefined);
    }
  });

  await app.register(helmet, { contentSecurityPolicy: { directives: { defaultSrc: ["'none'"] } } });
  await app.register(rateLimit, {
    max: options.perMinute ?? 600,
    timeWindow: 60_000,
    // Load balancers' and monitors' health checks are never refused.
    allowList: (request) => request.url === "/healthz" || request.url === "/readyz",
    // A token counts once a route has accepted it; anything else counts on the address (rate-keys.ts).
    keyGenerator: async (request) => {
      const { key, per } = await rateKey(store, request);
      (request as { ratePer?: string }).ratePer = per;
      return key;
    },
    errorResponseBuilder: (request, context) => {
      const per = (request as { ratePer?: string }).ratePer === "token" ? "token" : "address";
      // The submit route has its own, tighter limit (route.ts `perMinute`): actions, not requests.
      const counts = request.routeOptions.config?.rateLimit ? "actions" : "requests";
      const seconds = Math.ceil(context.ttl / 1000);
      return new ApiError(
        "rate/limited",
        counts === "actions" ? "actions" : per === "token" ? "per-token" : "per-address",
        { max: context.max, seconds },
        { limit: context.max, retryAfterSeconds: seconds, per, counts },
      );
    },
  });
  // Every request of an address counts on it, whatever token it carries (rate-keys.ts): one client
  // creating games for their host tokens gains nothing. Health checks are not counted.
  const addresses = new MinuteWindows();
  const perAddress = options.perAddressPerMinute ?? 2 * (options.perMinute ?? 600);
  app.addHook("onRequest", async (request) => {
    if (request.url === "/healthz" || request.url === "/readyz") return;
    const window = addresses.take(request.ip, perAddress);
    if (!window.ok)
      throw new ApiError(
        "rate/limited",
        "address-all",
        { max: perAddress, seconds: window.retryAfterSeconds },
        {
          limit: perAddress,
          retryAfterSeconds: window.retryAfterSeconds,
          per: "address",
          counts: "requests",
        },
      );
  });
  if (options.cors !== undefined) {
    const origin = options.cors;
    app.addHook("onRequest", async (request, reply) => {
      if (request.headers.origin === origin) {
        reply.header("access-control-allow-origin", origin);
        reply.header("vary", "Origin");
        reply.header("access-control-allow-headers", "authorization, content-type, last-event-id");
        reply.header("access-control-allow-methods", "GET, POST, PUT, DELETE");
      }
      if (request.method === "OPTIONS") return reply.code(204).send();
    });
  }

  app.setErrorHandler((error, request, reply) => {
    const failure = toApiError(error, request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit);
    if (failure.code === "server/internal") request.log.error({ err: error }, "unexpected error");
    if (failure.code === "rate/limited" || failure.code === "server/busy")
      reply.header("retry-after", String(failure.details.retryAfterSeconds ?? 60));
    reply.code(failure.status).type("application/json").send(failure.toJSON());
  });
  // The API's paths with their methods (filled once the routes are registered, below): a request with the
  // wrong method is told which ones its path takes.
  let paths: { pattern: RegExp; method: string }[] = [];
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const methods = [...new Set(paths.filter((p) => p.pattern.test(path)).map((p) => p.method))];
    if (methods.length === 0) {
      const failure = new ApiError("route/not-found", "no-route", { method: request.method, path });
      return reply.code(failure.status).send(failure.toJSON());
    }
    // RFC 9110: a 405 names the methods the path takes in Allow (HEAD comes with every GET).
    const allowed = methods.includes("GET") && !methods.includes("HEAD") ? [...methods, "HEAD"] : methods;
    const failure = new ApiError("route/method-not-allowed", "other-method", {
      method: request.method,
      path,
      methods: methods.join(" or "),
    });
    return reply.code(failure.status).header("allow", allowed.join(", ")).send(failure.toJSON());
  });

  const limits = {
    actionsPerMinute: options.actionsPerMinute ?? 30,
    worldLimit: options.worldLimit ?? 8 * 1024 * 1024,
  };
  worldRoutes(app, store, worlds, limits, pool, { ...DEFAULT_UPLOADS, ...options.uploads });
  const core = new GameCore({
    store,
    worlds,
    runner,
    actionsPerMinute: limits.actionsPerMinute,
    log: options.log,
    ...(options.clock ? { now: options.clock } : {}),
  });
  gameRoutes(app, { store, core });
  controlRoutes(app, { store, core });
  historyRoutes(
    app,
    store,
    worlds,
    pool,
    runner,
    options.narrator,
    options.scripts,
    options.playtestMaxTurns,
  );
  partyRoutes(app, store, worlds, pool);
  storageRoutes(app, store, worlds);
  tableRoutes(app, store, runner);
  webRoutes(app, options.webRoot);
  const streams = eventRoutes(app, store, options.streams);
  // Made at the first request for it, not at every start (converting every route's schemas costs tens of ms).
  const routes = [...routesOf(app)];
  paths = routes.map((r) => ({
    method: r.method,
    pattern: new RegExp(`^${r.url.replace(/:[^/]+/g, "[^/]+").replace(/\./g, "\\.")}$`),
  }));
  let document: ReturnType<typeof openApiDocument> | undefined;
  const openApi = () => {
    document ??= openApiDocument(routes, String(ENGINE_VERSION));
    return document;
  };
  app.get("/openapi.json", async () => openApi());
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/readyz", async (_request, reply) => {
    if (!ready) return reply.code(503).send(new ApiError("server/unavailable", "not-ready").toJSON());
    try {
      await store.ping();
      return { ok: true, store: options.store.dialect };
    } catch {
      return reply.code(503).send(new ApiError("server/unavailable", "store-silent").toJSON());
    }
  });

  const sweeper = new Sweeper(store, runner, options.log, options.sweepMs ?? SWEEP_MS, () =>
    core.settleVotes(),
  );
  await app.ready();
  sweeper.start();
  ready = true;

  return {
    app,
    store,
    runner,
    openApi,
    async close(graceMs = 10_000) {
      ready = false;
      sweeper.stop();
      streams.closeAll();
      const closing = app.close();
      const drained = await runner.drain(graceMs);
      if (!drained)
        options.log.warn(
          { graceMs },
          "steps still running at shutdown; their claims expire and another process runs them",
        );
      // The requests that waited for a step (an opening, a quest answer) are answered by now; whatever is
      // still open a moment later (or at once, when steps outlived the grace) is cut, so that closing ends.
      const cut = setTimeout(() => app.server.closeAllConnections(), drained ? 5000 : 0);
      await closing;
      clearTimeout(cut);
      await pool.close();
      await options.store.close();
    },
  };
}

/** Fastify's own errors (body too large, bad content type...) as API errors; anything else is internal. */
function toApiError(error: unknown, bodyLimit: number | undefined): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  switch (e?.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(
        "request/too-large",
        "too-large",
        { limit: bodyLimit === undefined ? "its limit" : bytes(bodyLimit) },
        bodyLimit === undefined ? {} : { limitBytes: bodyLimit },
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("request/unsupported-type", "not-json");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ApiError("request/malformed-json", "json");
  }
  if (isStoreUnavailable(error)) return new ApiError("server/unavailable", "store-unreachable");
  if (e?.statusCode === 429) return new ApiError("rate/limited", "wait-a-minute");
  if (e?.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
    return new ApiError("request/invalid", "other");
  return new ApiError("server/internal", "unexpected");
}

/** A body limit as people read it: 256 KiB, 8 MiB. */
function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
