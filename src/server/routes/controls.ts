import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import {
  AlterAnswer,
  BallotAnswer,
  BranchDeletedAnswer,
  BranchesView,
  BranchNamedAnswer,
  ControlsAnswer,
  DiffView,
  HeadMovedAnswer,
  RetryAnswer,
  VoteOpenedAnswer,
} from "../answers.ts";
import type { GameCore } from "../core.ts";
import { type Caller, type ContextOf, defineRoute, route } from "../route.ts";
import { ControlsPatch, GameParams, Id, queryNumber } from "../schemas.ts";
import type { Store } from "../store/store.ts";
import type { Asker, ControlAsk } from "../votes.ts";

/** What the story-control routes need: the store (to check callers) and the game core (every control). */
export interface ControlRouteDeps {
  store: Store;
  core: GameCore;
}

/**
 * The story controls (issue 33; docs/server.md "Story controls"): undo, retry, alter, rewind, the
 * branches and the world diff, and the party's rules and votes on them. The host or a player asks
 * for a control; the game's rules (PUT /games/:id/controls) decide whether it applies at once, opens
 * a party vote (202 `{vote}`; POST /games/:id/history/vote) or is refused. Each route checks the
 * request and calls one entry of the game core, which runs a control on the game's claim.
 */
export function controlRoutes(app: FastifyInstance, deps: ControlRouteDeps) {
  const on = <S extends ReturnType<typeof defineRoute>>(
    spec: S,
    handler: (ctx: ContextOf<S>, deps: ControlRouteDeps) => Promise<unknown>,
  ) => route(app, deps.store, spec, (ctx) => handler(ctx as ContextOf<S>, deps));
  on(UNDO, undoTurn);
  on(RETRY, retryTurn);
  on(ALTER, alterNarration);
  on(REWIND, rewindGame);
  on(BRANCHES, listBranches);
  on(SWITCH, switchBranch);
  on(DIFF, diffStates);
  on(CONTROLS, setControls);
  on(VOTE, castVote);
  on(NAME, nameBranch);
  on(DELETE, deleteBranch);
}

/** A control's route also answers 202 `{vote}`: the game's rule put it to a party vote. */
const VOTED = [
  {
    status: 202,
    response: VoteOpenedAnswer,
    description:
      "The game's rule for this control is a party vote: the vote opened (nothing is applied yet); the active players vote with POST /games/:id/history/vote.",
  },
];

/** Who asks for a control: the host token, or a player's. */
function askerOf(caller: Caller): Asker {
  if (caller.role === "player") return { player: caller.player };
  return { host: true };
}

/** Asks for a control by the game's rules: its answer (200), or the vote it opened (202). */
async function decided(
  core: GameCore,
  params: { id: string },
  caller: Caller,
  ask: ControlAsk,
  head: number | undefined,
  reply: FastifyReply,
) {
  const outcome = await core.ask(params.id, askerOf(caller), ask, head);
  if ("vote" in outcome) {
    reply.code(202);
    return { vote: outcome.vote };
  }
  return outcome.applied;
}

/** The step the caller saw as the game's last (its `seq`): the control is refused if the game moved since. */
const Head = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe(
    "The seq of the step the caller saw as the game's last; when the game moved on since, the control is refused (409 game/state) instead of applied twice.",
  );

const UNDO = defineRoute({
  method: "POST",
  url: "/games/:id/history/undo",
  operationId: "undoTurn",
  summary:
    "Take back the last turn of the current branch: the game goes to the step before it; the turn's actions return to the players' input boxes (the head-moved event carries them).",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ head: Head }).strict(),
  response: HeadMovedAnswer,
  otherwise: VOTED,
});

async function undoTurn({ params, body, caller, reply }: ContextOf<typeof UNDO>, { core }: ControlRouteDeps) {
  return decided(core, params, caller, { control: "undo" }, body.head, reply);
}

const RETRY = defineRoute({
  method: "POST",
  url: "/games/:id/history/retry",
  operationId: "retryTurn",
  summary:
    "Run the last turn again with the same actions and a new draw of the narrator; the first draw stays as a sibling branch.",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ head: Head }).strict(),
  response: RetryAnswer,
  otherwise: VOTED,
});

async function retryTurn(
  { params, body, caller, reply }: ContextOf<typeof RETRY>,
  { core }: ControlRouteDeps,
) {
  return decided(core, params, caller, { control: "retry" }, body.head, reply);
}

const ALTER = defineRoute({
  method: "POST",
  url: "/games/:id/history/alter",
  operationId: "alterNarration",
  summary:
    "Replace the text of the last narration; the original stays (as a sibling step, and in the host's log, with who altered it).",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ text: z.string().min(1).max(20_000), head: Head }).strict(),
  response: AlterAnswer,
  otherwise: VOTED,
});

async function alterNarration(
  { params, body, caller, reply }: ContextOf<typeof ALTER>,
  { core }: ControlRouteDeps,
) {
  return decided(core, params, caller, { control: "alter", text: body.text }, body.head, reply);
}

const REWIND = defineRoute({
  method: "POST",
  url: "/games/:id/history/rewind",
  operationId: "rewindGame",
  summary:
    "Go back to turn `tick` of the current branch: the next turn is played from there as a new branch; the old branch stays.",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ tick: z.number().int().min(0), head: Head }).strict(),
  response: HeadMovedAnswer,
  otherwise: VOTED,
});

async function rewindGame(
  { params, body, caller, reply }: ContextOf<typeof REWIND>,
  { core }: ControlRouteDeps,
) {
  return decided(core, params, caller, { control: "rewind", tick: body.tick }, body.head, reply);
}

const BRANCHES = defineRoute({
  method: "GET",
  url: "/games/:id/history/branches",
  operationId: "listBranches",
  summary:
    "The game's branches: each tip (a step nothing was played from, and the current step), where it splits from the current branch, its turns and a title. The host's token or a player's.",
  tag: "story controls",
  access: "member",
  params: GameParams,
  response: BranchesView,
});

async function listBranches({ params }: ContextOf<typeof BRANCHES>, { core }: ControlRouteDeps) {
  return core.branches(params.id);
}

const SWITCH = defineRoute({
  method: "POST",
  url: "/games/:id/history/switch",
  operationId: "switchBranch",
  summary: "Go to the branch that ends at step `branch` (a tip from the branch list, or any stored step).",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ branch: z.number().int().min(0), head: Head }).strict(),
  response: HeadMovedAnswer,
  otherwise: VOTED,
});

async function switchBranch(
  { params, body, caller, reply }: ContextOf<typeof SWITCH>,
  { core }: ControlRouteDeps,
) {
  return decided(core, params, caller, { control: "switch", branch: body.branch }, body.head, reply);
}

const DIFF = defineRoute({
  method: "GET",
  url: "/games/:id/history/diff",
  operationId: "diffStates",
  summary:
    "What differs in the world between two stored steps `?a=` and `?b=` (any branches): position and party, quests and objectives, narrative events, flags, storage, traits and items, triggers consumed. With a player's token, only what the party sees (`scope` party): position and party, quests and objectives, traits and items.",
  tag: "story controls",
  access: "member",
  params: GameParams,
  query: z.object({ a: queryNumber(0), b: queryNumber(0) }),
  response: DiffView,
});

async function diffStates({ params, query, caller }: ContextOf<typeof DIFF>, { core }: ControlRouteDeps) {
  return core.diff(params.id, query.a, query.b, caller.role === "host" ? "host" : "party");
}

const CONTROLS = defineRoute({
  method: "PUT",
  url: "/games/:id/controls",
  operationId: "setControls",
  summary:
    'Set who may use each story control: "host" (the host), "anyone" (any active player) or "vote" (a majority of the active players within `voteSeconds`); rules left out stay as they are. Everyone gets a controls-changed event.',
  tag: "story controls",
  access: "host",
  params: GameParams,
  body: ControlsPatch,
  response: ControlsAnswer,
});

async function setControls({ params, body }: ContextOf<typeof CONTROLS>, { core }: ControlRouteDeps) {
  return core.setControls(params.id, body);
}

const VOTE = defineRoute({
  method: "POST",
  url: "/games/:id/history/vote",
  operationId: "castVote",
  summary:
    "Vote on the game's open vote (`vote`: its id) for a story control: a majority of the active players' yes applies it (vote-closed passed, then the control's own event; its answer is `result`); a majority that can no longer come fails it. A ballot on the latest vote after it closed answers its outcome and counts nothing.",
  tag: "story controls",
  access: "player",
  params: GameParams,
  body: z.object({ vote: Id, ballot: z.enum(["yes", "no"]) }).strict(),
  response: BallotAnswer,
});

async function castVote({ params, body, caller }: ContextOf<typeof VOTE>, { core }: ControlRouteDeps) {
  const player = (caller as Extract<Caller, { role: "player" }>).player;
  return core.castVote(params.id, player, body.vote, body.ballot === "yes");
}

const Tip = z
  .number()
  .int()
  .min(0)
  .describe("The branch, by its last step (`tip` in GET /games/:id/history/branches).");

const NAME = defineRoute({
  method: "POST",
  url: "/games/:id/history/branches/name",
  operationId: "nameBranch",
  summary:
    "Name the branch that ends at step `branch` (at most 60 characters, not a number alone, unique in the game; control characters are dropped); an empty name takes its name away. The name stays with the branch as play goes on from it.",
  tag: "story controls",
  access: "member",
  params: GameParams,
  // Bounded before it is cleaned: what is cleaned away still travels.
  body: z.object({ branch: Tip, name: z.string().max(1000), head: Head }).strict(),
  response: BranchNamedAnswer,
  otherwise: VOTED,
});

async function nameBranch(
  { params, body, caller, reply }: ContextOf<typeof NAME>,
  { core }: ControlRouteDeps,
) {
  const ask = { control: "name" as const, branch: body.branch, name: body.name };
  return decided(core, params, caller, ask, body.head, reply);
}

const DELETE = defineRoute({
  method: "POST",
  url: "/games/:id/history/branches/delete",
  operationId: "deleteBranch",
  summary:
    "Delete the branch that ends at step `branch`: its own steps go, in one transaction; the steps it shares with other branches stay. The current branch cannot be deleted (switch first).",
  tag: "story controls",
  access: "member",
  params: GameParams,
  body: z.object({ branch: Tip, head: Head }).strict(),
  response: BranchDeletedAnswer,
  otherwise: VOTED,
});

async function deleteBranch(
  { params, body, caller, reply }: ContextOf<typeof DELETE>,
  { core }: ControlRouteDeps,
) {
  return decided(core, params, caller, { control: "delete", branch: body.branch }, body.head, reply);
}
