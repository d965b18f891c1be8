import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  AlterAnswer,
  BranchDeletedAnswer,
  BranchesView,
  BranchNamedAnswer,
  DiffView,
  HeadMovedAnswer,
  RetryAnswer,
} from "../answers.ts";
import type { GameCore } from "../core.ts";
import { type ContextOf, defineRoute, route } from "../route.ts";
import { GameParams, queryNumber } from "../schemas.ts";
import type { Store } from "../store/store.ts";

/** What the story-control routes need: the store (to check callers) and the game core (every control). */
export interface ControlRouteDeps {
  store: Store;
  core: GameCore;
}

/**
 * The story controls (issue 33; docs/server.md "Story controls"): undo, retry, alter, rewind, the
 * branches and the world diff. Host only (a party vote is not built yet). Each route checks the
 * request and calls one entry of the game core, which runs it on the game's claim.
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
  on(NAME, nameBranch);
  on(DELETE, deleteBranch);
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
  access: "host",
  params: GameParams,
  body: z.object({ head: Head }).strict(),
  response: HeadMovedAnswer,
});

async function undoTurn({ params, body }: ContextOf<typeof UNDO>, { core }: ControlRouteDeps) {
  return core.undo(params.id, body.head);
}

const RETRY = defineRoute({
  method: "POST",
  url: "/games/:id/history/retry",
  operationId: "retryTurn",
  summary:
    "Run the last turn again with the same actions and a new draw of the narrator; the first draw stays as a sibling branch.",
  tag: "story controls",
  access: "host",
  params: GameParams,
  body: z.object({ head: Head }).strict(),
  response: RetryAnswer,
});

async function retryTurn({ params, body }: ContextOf<typeof RETRY>, { core }: ControlRouteDeps) {
  return core.retry(params.id, body.head);
}

const ALTER = defineRoute({
  method: "POST",
  url: "/games/:id/history/alter",
  operationId: "alterNarration",
  summary:
    "Replace the text of the last narration; the original stays (as a sibling step, and in the host's log, with who altered it).",
  tag: "story controls",
  access: "host",
  params: GameParams,
  body: z.object({ text: z.string().min(1).max(20_000), head: Head }).strict(),
  response: AlterAnswer,
});

async function alterNarration({ params, body }: ContextOf<typeof ALTER>, { core }: ControlRouteDeps) {
  return core.alter(params.id, body.text, "the host", body.head);
}

const REWIND = defineRoute({
  method: "POST",
  url: "/games/:id/history/rewind",
  operationId: "rewindGame",
  summary:
    "Go back to turn `tick` of the current branch: the next turn is played from there as a new branch; the old branch stays.",
  tag: "story controls",
  access: "host",
  params: GameParams,
  body: z.object({ tick: z.number().int().min(0), head: Head }).strict(),
  response: HeadMovedAnswer,
});

async function rewindGame({ params, body }: ContextOf<typeof REWIND>, { core }: ControlRouteDeps) {
  return core.rewind(params.id, body.tick, body.head);
}

const BRANCHES = defineRoute({
  method: "GET",
  url: "/games/:id/history/branches",
  operationId: "listBranches",
  summary:
    "The game's branches: each tip (a step nothing was played from, and the current step), where it splits from the current branch, its turns and a title.",
  tag: "story controls",
  access: "host",
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
  access: "host",
  params: GameParams,
  body: z.object({ branch: z.number().int().min(0), head: Head }).strict(),
  response: HeadMovedAnswer,
});

async function switchBranch({ params, body }: ContextOf<typeof SWITCH>, { core }: ControlRouteDeps) {
  return core.switchBranch(params.id, body.branch, body.head);
}

const DIFF = defineRoute({
  method: "GET",
  url: "/games/:id/history/diff",
  operationId: "diffStates",
  summary:
    "What differs in the world between two stored steps `?a=` and `?b=` (any branches): position and party, quests and objectives, narrative events, flags, storage, traits and items, triggers consumed.",
  tag: "story controls",
  access: "host",
  params: GameParams,
  query: z.object({ a: queryNumber(0), b: queryNumber(0) }),
  response: DiffView,
});

async function diffStates({ params, query }: ContextOf<typeof DIFF>, { core }: ControlRouteDeps) {
  return core.diff(params.id, query.a, query.b);
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
  access: "host",
  params: GameParams,
  // Bounded before it is cleaned: what is cleaned away still travels.
  body: z.object({ branch: Tip, name: z.string().max(1000), head: Head }).strict(),
  response: BranchNamedAnswer,
});

async function nameBranch({ params, body }: ContextOf<typeof NAME>, { core }: ControlRouteDeps) {
  return core.nameBranch(params.id, body.branch, body.name, body.head);
}

const DELETE = defineRoute({
  method: "POST",
  url: "/games/:id/history/branches/delete",
  operationId: "deleteBranch",
  summary:
    "Delete the branch that ends at step `branch`: its own steps go, in one transaction; the steps it shares with other branches stay. The current branch cannot be deleted (switch first).",
  tag: "story controls",
  access: "host",
  params: GameParams,
  body: z.object({ branch: Tip, head: Head }).strict(),
  response: BranchDeletedAnswer,
});

async function deleteBranch({ params, body }: ContextOf<typeof DELETE>, { core }: ControlRouteDeps) {
  return core.deleteBranch(params.id, body.branch, body.head);
}
