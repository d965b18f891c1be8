import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  ForcedTurnAnswer,
  GameView,
  KickAnswer,
  QuestAnswerView,
  StartAnswer,
  StatusAnswer,
} from "../answers.ts";
import type { GameCore, StatusAction } from "../core.ts";
import {
  type AnswerOf,
  type Caller,
  type ContextOf,
  defineRoute,
  gameOf,
  type RouteSpec,
  route,
} from "../route.ts";
import { CreateGame, GameParams, Id, JoinGame, QuestAnswer, SubmitAction } from "../schemas.ts";
import type { Store } from "../store/store.ts";

/** What the game routes need: the store (to check callers) and the game core (every action). */
export interface GameRouteDeps {
  store: Store;
  core: GameCore;
}

/**
 * Games: create, join, read, start/pause/resume/end, kick, submit actions, force a turn, answer
 * quests. Each route checks the request and its caller and calls one entry of the game core.
 */
export function gameRoutes(app: FastifyInstance, deps: GameRouteDeps) {
  // Each handler answers what its spec declares (checked here, at compile time).
  const on = <S extends RouteSpec<z.ZodType, z.ZodType, z.ZodType, z.ZodType>>(
    spec: S,
    handler: (ctx: ContextOf<S>, deps: GameRouteDeps) => Promise<AnswerOf<S>>,
  ) => route(app, deps.store, spec, (ctx) => handler(ctx as ContextOf<S>, deps));
  on(CREATE, createGame);
  on(JOIN, joinGame);
  on(READ, readGame);
  on(START, startGame);
  for (const action of ["pause", "resume", "end"] as const) on(statusSpec(action), changeStatus(action));
  on(KICK, kickPlayer);
  on(SUBMIT, submitAction);
  on(FORCE, forceTurn);
  on(ANSWER, answerQuest);
}

const CREATE = defineRoute({
  method: "POST",
  url: "/games",
  summary: "Create a game from an uploaded world; the answer holds the host token and the invite code.",
  tag: "games",
  access: "public",
  body: CreateGame,
  status: 201,
  response: z.object({ id: z.string(), hostToken: z.string(), invite: z.string() }),
});

async function createGame({ body, request }: ContextOf<typeof CREATE>, { core }: GameRouteDeps) {
  return core.create(body, `address:${request.ip}`);
}

const JOIN = defineRoute({
  method: "POST",
  url: "/games/join",
  summary:
    "Join a game with its invite code and a character: before the start a premade or a new character, after it an unclaimed character of the party.",
  tag: "games",
  access: "public",
  body: JoinGame,
  status: 201,
  response: z.object({ gameId: z.string(), playerId: z.string(), name: z.string(), token: z.string() }),
});

async function joinGame({ body }: ContextOf<typeof JOIN>, { core }: GameRouteDeps) {
  return core.join(body);
}

const READ = defineRoute({
  method: "GET",
  url: "/games/:id",
  summary: "The game as the caller may see it: status, players, who has submitted, the party's state.",
  tag: "games",
  access: "member",
  params: GameParams,
  response: GameView,
});

async function readGame({ caller }: ContextOf<typeof READ>, { core }: GameRouteDeps) {
  return core.view(gameOf(caller), caller.role === "player" ? { player: caller.player } : { host: true });
}

const START = defineRoute({
  method: "POST",
  url: "/games/:id/start",
  summary: "Start the game: the opening is narrated.",
  tag: "games",
  access: "host",
  params: GameParams,
  response: StartAnswer,
});

async function startGame({ params }: ContextOf<typeof START>, { core }: GameRouteDeps) {
  return core.start(params.id);
}

function statusSpec(action: StatusAction) {
  return defineRoute({
    method: "POST",
    url: `/games/:id/${action}`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} the game.`,
    tag: "games",
    access: "host",
    params: GameParams,
    response: StatusAnswer,
  });
}

function changeStatus(action: StatusAction) {
  return async ({ params }: ContextOf<ReturnType<typeof statusSpec>>, { core }: GameRouteDeps) =>
    core.setStatus(params.id, action);
}

const KICK = defineRoute({
  method: "POST",
  url: "/games/:id/players/:player/kick",
  summary: "Remove a player: their token stops working and turns no longer wait for them.",
  tag: "games",
  access: "host",
  params: z.object({ id: Id, player: Id }),
  response: KickAnswer,
});

async function kickPlayer({ params }: ContextOf<typeof KICK>, { core }: GameRouteDeps) {
  return core.kick(params.id, params.player);
}

const SUBMIT = defineRoute({
  method: "POST",
  url: "/games/:id/actions",
  summary:
    "Submit your character's action for the current turn. The same idempotencyKey twice is one submission. The turn runs when every active player has submitted.",
  tag: "turns",
  access: "player",
  params: GameParams,
  body: SubmitAction,
  status: 202,
  response: z.union([
    z.object({ submission: z.string(), tick: z.number(), duplicate: z.boolean() }),
    z.object({
      answered: z.object({
        quest: z.string(),
        answer: z.enum(["accept", "reject"]),
        status: z.string(),
        waitingFor: z.array(z.string()),
      }),
    }),
  ]),
});

async function submitAction({ body, caller }: ContextOf<typeof SUBMIT>, { core }: GameRouteDeps) {
  const player = (caller as Extract<Caller, { role: "player" }>).player;
  return core.submit(gameOf(caller), player, body);
}

const FORCE = defineRoute({
  method: "POST",
  url: "/games/:id/turn",
  summary: "Run the turn now with the actions submitted so far (at least one).",
  tag: "turns",
  access: "host",
  params: GameParams,
  status: 202,
  response: ForcedTurnAnswer,
});

async function forceTurn({ params }: ContextOf<typeof FORCE>, { core }: GameRouteDeps) {
  return core.force(params.id);
}

const ANSWER = defineRoute({
  method: "POST",
  url: "/games/:id/quests/:quest/:answer",
  summary:
    "Answer a quest offer (accept, reject) or abandon an accepted quest, for yourself: the first accept takes the quest for the party; reject and abandon apply once every active player has given them.",
  tag: "turns",
  access: "player",
  params: QuestAnswer,
  response: QuestAnswerView,
});

async function answerQuest({ params, caller }: ContextOf<typeof ANSWER>, { core }: GameRouteDeps) {
  const player = (caller as Extract<Caller, { role: "player" }>).player;
  return core.answer(gameOf(caller).id, player, params.quest, params.answer);
}
