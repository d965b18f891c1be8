/**
 * The typed client of the server's public API. The request and answer types
 * come from the server's own zod schemas and view functions (type-only
 * imports: nothing of the server is bundled), and ROUTES lists every
 * method and path the page calls; test/web/api-client.test.ts checks each
 * one against the server's /openapi.json, so the two cannot drift.
 */
import type { z } from "zod";
import type { TurnTrace } from "../../src/engine/trace.ts";
import type { CheckReport } from "../../src/host/check-report.ts";
import type {
  AlterAnswer,
  BallotAnswer,
  BranchesView as BranchesSchema,
  ControlsAnswer,
  ControlsView as ControlsSchema,
  DiffView as DiffSchema,
  HeadMovedAnswer,
  RetryAnswer,
  VoteOpenedAnswer,
  VoteView as VoteSchema,
} from "../../src/server/answers.ts";
import type { InviteView as InviteSchema, NarrativeNotes } from "../../src/server/routes/party.ts";
import type { AttributeRules, WorldListing as WorldListingSchema } from "../../src/server/routes/worlds.ts";
import type { CreateGame, JoinGame, SubmitAction } from "../../src/server/schemas.ts";
import type {
  playerResult,
  playerState,
  premades,
  storyStarts,
  worldSummary,
} from "../../src/server/views.ts";

export type WorldListing = z.infer<typeof WorldListingSchema>;
export type WorldSummary = ReturnType<typeof worldSummary> & {
  attributes: z.infer<typeof AttributeRules>;
  warnings: CheckReport["diagnostics"];
};
export type Premade = ReturnType<typeof premades>[number];
export type StoryStart = ReturnType<typeof storyStarts>[number];
export type PartyState = ReturnType<typeof playerState>;
export type Member = PartyState["party"][number];
export type Quest = PartyState["quests"][number];
export type TurnView = ReturnType<typeof playerResult> & {
  seq: number;
  actions: { player: string; name?: string; text: string }[];
};
/** One event of a game's stream: its kind and payload (the server's one union, src/server/events.ts). */
export type { GameEvent, GameEventData, GameEventKind } from "../../src/server/events.ts";
export type CreateGameBody = z.input<typeof CreateGame>;
export type JoinGameBody = z.input<typeof JoinGame>;
export type Character = JoinGameBody["character"];
export type SubmitActionBody = z.input<typeof SubmitAction>;
export type InviteView = z.infer<typeof InviteSchema>;
export type NarrativeNote = z.infer<typeof NarrativeNotes>["notes"][number];
export type { CheckReport, TurnTrace };
/** The game's branches (issue 33): each tip, its turns, a title, and which one is played now. */
export type BranchesView = z.infer<typeof BranchesSchema>;
export type Branch = BranchesView["branches"][number];
/** What differs in the world between two steps, as typed changes. */
export type DiffView = z.infer<typeof DiffSchema>;
export type WorldChange = DiffView["changes"][number];

/** Who may use a story control: the host, any active player, or a vote of the party. */
export type ControlRule = ControlRules["retry"];
/** A game's rules for the story controls (`branch`: switching, naming and deleting branches) and how long a vote lasts. */
export type ControlRules = z.infer<typeof ControlsSchema>;
/** A party vote on a story control, as everyone sees it. */
export type VoteView = z.infer<typeof VoteSchema>;

export interface GameView {
  id: string;
  status: "lobby" | "running" | "paused" | "ended";
  tick: number;
  seq: number;
  world: string;
  storyStart: string | null;
  /** The game's newest event id when this view was read: the stream from it brings what came since. */
  eventId: string;
  invite?: string;
  seed?: number;
  you: { playerId: string; name: string } | { host: true };
  players: { id: string; name: string; status: string; submitted: boolean }[];
  state: PartyState | null;
  /** Who may use the story controls (a server with party votes). */
  controls?: ControlRules;
  /** The open party vote, or null. */
  vote?: VoteView | null;
  /** What the caller's request for each control leads to now. */
  may?: Record<"retry" | "undo" | "alter" | "rewind" | "branch", "apply" | "vote" | "denied">;
}

export interface TranscriptStep {
  seq: number;
  kind: "opening" | "turn" | "answer" | "import";
  tick: number;
  inputs: { actions?: { player: string; text: string }[]; player?: string; quest?: string; answer?: string };
  result: Partial<TurnView> & { status?: string; quest?: string };
  narration: string;
  at: number;
}

export interface LogLine {
  tick: number;
  phase: string;
  trigger: string | null;
  type: string;
  message: string;
}

export interface TraceView {
  seq: number;
  tick: number;
  trace: TurnTrace;
  fired: string[];
  text: string;
}

export interface StorageView {
  tick: number;
  storage: unknown;
  events: Record<string, { status: string; activeTurns: number }>;
  consumed: Record<string, number>;
  triggerEdits: unknown;
}

/** Every call the page makes: [method, OpenAPI-style path]. */
export const ROUTES = {
  listWorlds: ["GET", "/worlds"],
  uploadWorld: ["POST", "/worlds"],
  world: ["GET", "/worlds/{hash}"],
  premades: ["GET", "/worlds/{hash}/premades"],
  invite: ["GET", "/invites/{code}"],
  createGame: ["POST", "/games"],
  joinGame: ["POST", "/games/join"],
  game: ["GET", "/games/{id}"],
  start: ["POST", "/games/{id}/start"],
  pause: ["POST", "/games/{id}/pause"],
  resume: ["POST", "/games/{id}/resume"],
  submit: ["POST", "/games/{id}/actions"],
  forceTurn: ["POST", "/games/{id}/turn"],
  retry: ["POST", "/games/{id}/retry"],
  end: ["POST", "/games/{id}/end"],
  kick: ["POST", "/games/{id}/players/{player}/kick"],
  seat: ["POST", "/games/{id}/players/{player}/seat"],
  free: ["POST", "/games/{id}/players/{player}/free"],
  handHost: ["POST", "/games/{id}/host"],
  claimHost: ["POST", "/games/{id}/host/claim"],
  answer: ["POST", "/games/{id}/quests/{quest}/{answer}"],
  transcript: ["GET", "/games/{id}/transcript"],
  events: ["GET", "/games/{id}/events"],
  map: ["GET", "/games/{id}/map.svg"],
  notes: ["GET", "/games/{id}/narrative-events"],
  trace: ["GET", "/games/{id}/trace"],
  log: ["GET", "/games/{id}/log"],
  storage: ["GET", "/games/{id}/storage"],
  save: ["GET", "/games/{id}/save"],
  cassette: ["GET", "/games/{id}/cassette"],
  playtest: ["GET", "/games/{id}/playtest"],
  undoTurn: ["POST", "/games/{id}/history/undo"],
  retryTurn: ["POST", "/games/{id}/history/retry"],
  alterNarration: ["POST", "/games/{id}/history/alter"],
  rewindGame: ["POST", "/games/{id}/history/rewind"],
  listBranches: ["GET", "/games/{id}/history/branches"],
  switchBranch: ["POST", "/games/{id}/history/switch"],
  diffStates: ["GET", "/games/{id}/history/diff"],
  nameBranch: ["POST", "/games/{id}/history/branches/name"],
  deleteBranch: ["POST", "/games/{id}/history/branches/delete"],
  setControls: ["PUT", "/games/{id}/controls"],
  castVote: ["POST", "/games/{id}/history/vote"],
} as const satisfies Record<string, readonly ["GET" | "POST" | "PUT", string]>;

export type RouteName = keyof typeof ROUTES;

/** An error answer of the API: its stable code, its message and details (a world's check report...). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The path of a route with its parameters filled in (each one URL-encoded). */
export function pathOf(name: RouteName, params: Record<string, string> = {}): string {
  return ROUTES[name][1].replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key} of ${name}`);
    return encodeURIComponent(value);
  });
}

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The body as it is sent (a world file's text). */
  raw?: string;
  token?: string;
}

async function send(name: RouteName, options: CallOptions = {}): Promise<Response> {
  const [method] = ROUTES[name];
  let url = pathOf(name, options.params);
  const query = Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined && v !== "");
  if (query.length > 0) url += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined || options.body !== undefined || method === "POST") {
    headers["content-type"] = "application/json";
    body = options.raw ?? JSON.stringify(options.body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  } catch {
    throw new ApiFailure(0, "network", "The server cannot be reached; check the connection and retry.", {});
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => undefined)) as
      | { error?: { code: string; message: string; details?: Record<string, unknown> } }
      | undefined;
    const error = answer?.error;
    throw new ApiFailure(
      response.status,
      error?.code ?? "http",
      error?.message ?? `The server answered ${response.status}.`,
      error?.details ?? {},
    );
  }
  return response;
}

async function json<T>(name: RouteName, options?: CallOptions): Promise<T> {
  return (await send(name, options)).json() as Promise<T>;
}

export const api = {
  listWorlds: () => json<{ worlds: WorldListing[] }>("listWorlds"),
  /** `token`: the host token of a game on this server (its quota of uploads), or the operator's. */
  uploadWorld: (text: string, fileName: string, token: string | undefined) =>
    json<{ hash: string; name: string; created: boolean; report: CheckReport }>("uploadWorld", {
      raw: text,
      query: { name: fileName },
      ...(token ? { token } : {}),
    }),
  world: (hash: string) => json<WorldSummary>("world", { params: { hash } }),
  premades: (hash: string) => json<{ premadeCharacters: Premade[] }>("premades", { params: { hash } }),
  invite: (code: string) => json<InviteView>("invite", { params: { code } }),
  createGame: (body: CreateGameBody) =>
    json<{ id: string; hostToken: string; invite: string }>("createGame", { body }),
  joinGame: (body: JoinGameBody) =>
    json<{ gameId: string; playerId: string; name: string; token: string }>("joinGame", { body }),
  game: (id: string, token: string) => json<GameView>("game", { params: { id }, token }),
  start: (id: string, token: string) => json<{ status: string }>("start", { params: { id }, token }),
  pause: (id: string, token: string) => json<{ status: string }>("pause", { params: { id }, token }),
  resume: (id: string, token: string) => json<{ status: string }>("resume", { params: { id }, token }),
  submit: (id: string, token: string, body: SubmitActionBody) =>
    // A bare "y" or "no" while a quest is on offer is an answer, not an action (the server decides, as the terminal does).
    json<
      | { submission: string; tick: number; duplicate: boolean }
      | { answered: { quest: string; answer: "accept" | "reject"; status: string; waitingFor: string[] } }
    >("submit", { params: { id }, token, body }),
  forceTurn: (id: string, token: string) => json<{ tick: number }>("forceTurn", { params: { id }, token }),
  retry: (id: string, token: string) =>
    json<{ tick: number; turn: "ran" | "waiting" | "busy" | "idle" }>("retry", { params: { id }, token }),
  end: (id: string, token: string) => json<{ status: string }>("end", { params: { id }, token }),
  kick: (id: string, token: string, player: string) =>
    json<{ kicked: string }>("kick", { params: { id, player }, token }),
  seat: (id: string, token: string, player: string) =>
    json<{ playerId: string; name: string; token: string }>("seat", { params: { id, player }, token }),
  free: (id: string, token: string, player: string) =>
    json<{ freed: string; name: string }>("free", { params: { id, player }, token }),
  handHost: (id: string, token: string, player: string) =>
    json<{ offered: string; name: string }>("handHost", { params: { id }, token, body: { player } }),
  claimHost: (id: string, token: string) =>
    json<{ hostToken: string }>("claimHost", { params: { id }, token }),
  answer: (id: string, token: string, quest: string, answer: "accept" | "reject") =>
    json<{ status: string }>("answer", { params: { id, quest, answer }, token }),
  transcript: (id: string, token: string) =>
    json<{ transcript: TranscriptStep[] }>("transcript", { params: { id }, token }),
  map: async (id: string, token: string) => (await send("map", { params: { id }, token })).blob(),
  notes: (id: string, token: string) => json<{ notes: NarrativeNote[] }>("notes", { params: { id }, token }),
  trace: (id: string, token: string, seq?: number) =>
    json<TraceView>("trace", { params: { id }, token, query: { seq } }),
  log: (id: string, token: string, filter: { tick?: number; type?: string; trigger?: string }) =>
    json<{ entries: LogLine[] }>("log", { params: { id }, token, query: filter }),
  storage: (id: string, token: string) => json<StorageView>("storage", { params: { id }, token }),
  save: async (id: string, token: string) => (await send("save", { params: { id }, token })).blob(),
  cassette: async (id: string, token: string) => (await send("cassette", { params: { id }, token })).blob(),
  playtest: async (id: string, token: string) => (await send("playtest", { params: { id }, token })).blob(),
  // The story controls (the host's, or a player's as the game's rules say: then a vote may open,
  // answered 202 {vote}): what they change arrives as events (`turn-retried`, `narration-altered`,
  // `head-moved`, the vote's) for every page of the game.
  undoTurn: (id: string, token: string) =>
    json<z.infer<typeof HeadMovedAnswer> | z.infer<typeof VoteOpenedAnswer>>("undoTurn", {
      params: { id },
      token,
      body: {},
    }),
  retryTurn: (id: string, token: string) =>
    json<z.infer<typeof RetryAnswer> | z.infer<typeof VoteOpenedAnswer>>("retryTurn", {
      params: { id },
      token,
      body: {},
    }),
  alterNarration: (id: string, token: string, text: string) =>
    json<z.infer<typeof AlterAnswer> | z.infer<typeof VoteOpenedAnswer>>("alterNarration", {
      params: { id },
      token,
      body: { text },
    }),
  rewindGame: (id: string, token: string, tick: number) =>
    json<z.infer<typeof HeadMovedAnswer> | z.infer<typeof VoteOpenedAnswer>>("rewindGame", {
      params: { id },
      token,
      body: { tick },
    }),
  listBranches: (id: string, token: string) => json<BranchesView>("listBranches", { params: { id }, token }),
  switchBranch: (id: string, token: string, branch: number) =>
    json<z.infer<typeof HeadMovedAnswer> | z.infer<typeof VoteOpenedAnswer>>("switchBranch", {
      params: { id },
      token,
      body: { branch },
    }),
  diffStates: (id: string, token: string, a: number, b: number) =>
    json<DiffView>("diffStates", { params: { id }, token, query: { a, b } }),
  nameBranch: (id: string, token: string, branch: number, name: string) =>
    json<{ tip: number; name: string | null }>("nameBranch", {
      params: { id },
      token,
      body: { branch, name },
    }),
  deleteBranch: (id: string, token: string, branch: number) =>
    json<{ tip: number; steps: number[] }>("deleteBranch", { params: { id }, token, body: { branch } }),
  /** The host's rules for the story controls (a rule left out keeps its value). */
  setControls: (id: string, token: string, controls: Partial<ControlRules>) =>
    json<z.infer<typeof ControlsAnswer>>("setControls", { params: { id }, token, body: controls }),
  /** A player's ballot on the game's open vote; a ballot that passes it applies the control (its events follow). */
  castVote: (id: string, token: string, vote: string, ballot: "yes" | "no") =>
    json<z.infer<typeof BallotAnswer>>("castVote", {
      params: { id },
      token,
      body: { vote, ballot },
    }),
  /** The event stream's response (read by sse.ts), from after the given event id. */
  events: (id: string, token: string, after: string, signal: AbortSignal) =>
    fetch(`${pathOf("events", { id })}?after=${after}`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal,
    }),
};
