import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { type PlainIssue, plainIssue, plainIssues } from "../world/plain-issues.ts";
import { bearer, hashToken, missingToken } from "./auth.ts";
import { ApiError } from "./errors.ts";
import type { Game, Player, Store } from "./store/store.ts";

/** Who is calling: the game's host, one of its players, or anyone (public routes). */
export type Caller =
  | { role: "host"; game: Game }
  | { role: "player"; game: Game; player: Player }
  | { role: "anyone" };

export type Access = "public" | "host" | "member" | "player";

export interface RouteSpec<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  summary: string;
  /** The operation's name in the OpenAPI document (`undoTurn`); clients generated from it use it. */
  operationId?: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** The success answer, for the OpenAPI document (a handler's return value is checked against it). */
  response?: R;
  /** A content type other than JSON (SVG, SSE, JSON Lines, a save file). */
  produces?: string;
  status?: number;
  /** Other success statuses, with the same answer (`POST /worlds`: 200 for a world already stored). */
  also?: number[];
  /** Other success statuses with an answer of their own (a story control put to a vote: 202 `{vote}`). */
  otherwise?: { status: number; response: z.ZodType; description: string }[];
  /** Request headers the route reads (the event stream's `Last-Event-ID`), for the OpenAPI document. */
  headers?: { name: string; description: string; schema: z.ZodType }[];
  bodyLimit?: number;
  /** Requests per minute per token or address, tighter than the server-wide limit. */
  perMinute?: number;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  request: FastifyRequest;
  reply: FastifyReply;
}

type AnySpec = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

/** The routes registered on each server, for its /openapi.json (each server has its own list). */
const BOOKS = new WeakMap<FastifyInstance, AnySpec[]>();

/** The routes registered on `app` by `route`, in order. */
export function routesOf(app: FastifyInstance): readonly AnySpec[] {
  return BOOKS.get(app) ?? [];
}

/** A route's spec, typed by its schemas (a named handler's context is `ContextOf<typeof spec>`). */
export function defineRoute<
  P extends z.ZodType = typeof NoParams,
  Q extends z.ZodType = typeof NoParams,
  B extends z.ZodType = z.ZodUnknown,
  R extends z.ZodType = z.ZodUnknown,
>(spec: RouteSpec<P, Q, B, R>): RouteSpec<P, Q, B, R> {
  return spec;
}

/** What a route made by `defineRoute` answers: its declared answer, as its handler returns it. */
export type AnswerOf<S> = S extends RouteSpec<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.input<R> : never;

/** What a route's handler is given, for the spec made by `defineRoute`. */
export type ContextOf<S> =
  S extends RouteSpec<infer P, infer Q, infer B, z.ZodType>
    ? RouteContext<z.infer<P>, z.infer<Q>, z.infer<B>>
    : never;

const NoParams = z.object({});

/**
 * Registers a route whose params, query and body are checked by zod schemas
 * (the same schemas make the OpenAPI document) and whose caller is checked
 * against its access before the handler runs.
 */
export function route<
  P extends z.ZodType = typeof NoParams,
  Q extends z.ZodType = typeof NoParams,
  B extends z.ZodType = z.ZodUnknown,
  R extends z.ZodType = z.ZodUnknown,
>(
  app: FastifyInstance,
  store: Store,
  spec: RouteSpec<P, Q, B, R>,
  // What the handler answers is what the document declares, or the reply it sent itself (a file), or
  // nothing (a stream it writes itself, hijacked).
  handler: (
    ctx: RouteContext<z.infer<P>, z.infer<Q>, z.infer<B>>,
  ) => Promise<z.input<R> | FastifyReply | undefined>,
): void {
  const book = BOOKS.get(app) ?? [];
  BOOKS.set(app, book);
  book.push(spec as unknown as AnySpec);
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    ...(spec.perMinute !== undefined
      ? { config: { rateLimit: { max: spec.perMinute, timeWindow: 60_000 } } }
      : {}),
    handler: async (request, reply) => {
      const params = parse("path", spec.params ?? NoParams, request.params);
      // Who calls before what they send: a caller without a valid token learns nothing about the route.
      const caller = await authorize(store, spec.access, request, (params as { id?: string }).id);
      const query = parse("query", spec.query ?? NoParams, request.query);
      // No body at all reads as {}; a JSON null is a body of the wrong type, refused like `[]` or `42`.
      const body = spec.body
        ? parse("body", spec.body, request.body === undefined ? {} : request.body)
        : undefined;
      reply.code(spec.status ?? 200);
      const value = await handler({
        params: params as z.infer<P>,
        query: query as z.infer<Q>,
        body: body as z.infer<B>,
        caller,
        request,
        reply,
      });
      if (reply.sent) return reply;
      return value;
    },
  });
}

function parse(where: string, schema: z.ZodType, value: unknown): unknown {
  // Plain words, not zod's ("must be a whole number, 0 or more", not "expected number, received NaN"); the
  // input is reported only to choose a union's closest branch (world/plain-issues.ts), never sent back.
  const result = schema.safeParse(value, { error: plainIssue, reportInput: true });
  if (result.success) return result.data;
  const issues = plainIssues(result.error.issues)
    .slice(0, 10)
    .map((i) => (where === "query" ? { ...i, message: withQueryValue(i, value) } : i));
  const first = issues[0];
  throw first
    ? new ApiError(
        "request/invalid",
        "schema",
        { where, at: [where, ...first.path].join("."), issue: first.message },
        { where, issues },
      )
    : new ApiError("request/invalid", "schema-whole", { where }, { where, issues });
}

/**
 * A query value as it was sent, after the issue's words (`must be a whole number, 0 or more (got
 * "abc")`): a query is short text the caller typed, so showing it back helps find the typo.
 */
function withQueryValue(issue: PlainIssue, query: unknown): string {
  const sent =
    issue.path.length === 1 ? (query as Record<string, unknown> | undefined)?.[issue.path[0]!] : undefined;
  if (typeof sent !== "string" && !Array.isArray(sent)) return issue.message;
  const shown = Array.isArray(sent)
    ? `${sent.length} values: ${sent.map((v) => JSON.stringify(String(v))).join(", ")}`
    : JSON.stringify(sent);
  return `${issue.message} (got ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown})`;
}

async function authorize(
  store: Store,
  access: Access,
  request: FastifyRequest,
  gameId: string | undefined,
): Promise<Caller> {
  if (access === "public") return { role: "anyone" };
  const token = bearer(request.headers.authorization);
  if (token === undefined) {
    const why = missingToken(request.headers.authorization);
    if (why === "malformed") throw new ApiError("auth/invalid", "malformed");
    throw new ApiError("auth/missing", why);
  }
  const hash = hashToken(token);
  let caller: Exclude<Caller, { role: "anyone" }> | undefined;
  if (token.startsWith("tfh_")) {
    const game = await store.gameByHostToken(hash);
    if (game) caller = { role: "host", game };
  } else if (token.startsWith("tfp_")) {
    // The player and their game in one query (PostgreSQL).
    const found = await store.callerByToken(hash);
    if (found) caller = { role: "player", game: found.game, player: found.player };
  }
  if (!caller) throw new ApiError("auth/invalid", "not-issued");
  if (gameId !== undefined && caller.game.id !== gameId)
    throw new ApiError("auth/other-game", "other-game", {}, { game: gameId });
  if (caller.role === "player" && caller.player.status === "kicked")
    throw new ApiError("auth/kicked", "kicked");
  if (access === "host" && caller.role !== "host") throw new ApiError("auth/host-only", "host-only");
  if (access === "player" && caller.role !== "player") throw new ApiError("auth/player-only", "player-only");
  return caller;
}

/** The game of a caller known to belong to one. */
export function gameOf(caller: Caller): Game {
  if (caller.role === "anyone") throw new ApiError("auth/missing", "no-token");
  return caller.game;
}
