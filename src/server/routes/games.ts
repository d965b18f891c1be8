import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlayerSpec } from "../../engine/index.ts";
import { readSave } from "../../engine/index.ts";
import { readLine, replyOf, replyProblem } from "../../host/offers.ts";
import { hashToken, newId, newInviteCode, newToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { lookalikeOf } from "../names.ts";
import { answerQuest } from "../quests.ts";
import { MinuteWindows } from "../rate-keys.ts";
import { type Caller, gameOf, route } from "../route.ts";
import { asApiError, type NarratorFactory, type Runner } from "../runner.ts";
import {
  Character,
  CreateGame,
  GameParams,
  Id,
  JoinGame,
  MAX_PLAYERS,
  QuestAnswer,
  SubmitAction,
} from "../schemas.ts";
import type { Game, Store } from "../store/store.ts";
import { playerState, unclaimed } from "../views.ts";
import type { WorldCache } from "../worlds.ts";
import { takeOpenSeat } from "./table.ts";

/** Games: create, join, start/pause/resume/end, kick, submit actions, force a turn, answer quests. */
export function gameRoutes(
  app: FastifyInstance,
  store: Store,
  worlds: WorldCache,
  runner: Runner,
  _narrator: NarratorFactory,
  limits: { actionsPerMinute: number },
) {
  /** New submissions per player (so per player token) in the last minute. */
  const actions = new MinuteWindows();
  route(
    app,
    store,
    {
      method: "POST",
      url: "/games",
      summary: "Create a game from an uploaded world; the answer holds the host token and the invite code.",
      tag: "games",
      access: "public",
      body: CreateGame,
      status: 201,
      response: z.object({ id: z.string(), hostToken: z.string(), invite: z.string() }),
    },
    async ({ body }) => {
      const world = await worlds.get(body.world);
      if (body.storyStart !== undefined && !Object.hasOwn(world.storyStarts, body.storyStart))
        throw new ApiError(
          "world/unknown-name",
          "story-start",
          { storyStart: body.storyStart, world: body.world },
          { storyStart: body.storyStart },
        );
      const modes = Object.values(world.gameModes).map((m) => m.name);
      if (body.gameMode != null && !modes.includes(body.gameMode))
        throw new ApiError(
          "world/unknown-name",
          "game-mode",
          { gameMode: body.gameMode, modes: modes.join(", ") || "none" },
          { gameMode: body.gameMode },
        );
      const hostToken = newToken("host");
      const now = Date.now();
      const game: Game = {
        id: newId(),
        event_seq: 0,
        world_hash: body.world,
        status: "lobby",
        host_token_hash: hashToken(hostToken),
        invite_code: newInviteCode(),
        seed: body.seed ?? Math.floor(Math.random() * 0x100000000),
        story_start: body.storyStart ?? null,
        game_mode: body.gameMode ?? null,
        narrator: body.narrator ?? "server",
        seq: 0,
        tick: 0,
        forced_tick: null,
        turn_timeout_ms: body.turnTimeoutSeconds !== undefined ? body.turnTimeoutSeconds * 1000 : null,
        turn_opened_at: null,
        lease_owner: null,
        lease_until: null,
        created_at: now,
        updated_at: now,
      };
      await store.createGame(game);
      return { id: game.id, hostToken, invite: game.invite_code };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/join",
      summary:
        "Join a game with its invite code and a character: before the start a premade or a new character, after it an unclaimed character of the party.",
      tag: "games",
      access: "public",
      body: JoinGame,
      status: 201,
      response: z.object({ gameId: z.string(), playerId: z.string(), name: z.string(), token: z.string() }),
    },
    async ({ body }) => {
      const game = await store.gameByInvite(body.invite.trim().toUpperCase());
      if (!game) throw new ApiError("game/invite-unknown", "no-invite");
      if (game.status === "ended") throw new ApiError("game/state", "ended");
      const world = await worlds.get(game.world_hash);
      const players = await store.players(game.id);
      if (players.length >= MAX_PLAYERS)
        throw new ApiError("game/state", "full", { max: MAX_PLAYERS }, { limit: MAX_PLAYERS });
      const spec = body.character as PlayerSpec;
      const name = "premade" in spec ? spec.premade : spec.name;
      if ("premade" in spec && !world.premadeCharacters.some((p) => p.name === spec.premade))
        throw new ApiError("world/unknown-name", "premade", {
          premade: spec.premade,
          world: game.world_hash,
        });
      if (game.status !== "lobby") {
        // After the start, the party is fixed: a player claims a character nobody plays (an imported game, a kicked seat is not reopened).
        const last = await store.lastTurn(game.id);
        const party = last ? readSave(world, last.state).state.party : [];
        if (!party.some((c) => c.kind === "player" && c.name === name)) {
          // Only the characters nobody plays: a kicked player's stays theirs (their seat is not reopened).
          const claimable = unclaimed(party, players);
          if (claimable.length === 0) throw new ApiError("game/state", "join-all-played", {}, { claimable });
          throw new ApiError(
            "game/state",
            "join-started",
            { characters: claimable.join(", ") },
            { claimable },
          );
        }
      }
      // A seat the host freed: the one who joins as its character takes it (table.ts).
      const reopened = await takeOpenSeat(store, game.id, name);
      if (reopened) return reopened;
      if (players.some((p) => p.name === name))
        throw new ApiError("game/name-taken", "taken", { name }, { name });
      // A name only a close look tells apart from a player's ("Іsobel" with a Cyrillic І, "ａda") would let
      // one player pass for another in the story and the party list.
      const other = lookalikeOf(
        name,
        players.map((p) => p.name),
      );
      if (other !== undefined)
        throw new ApiError("game/name-confusable", "lookalike", { name, other }, { name, other });
      const token = newToken("player");
      const id = newId();
      try {
        await store.addPlayer(
          {
            id,
            game_id: game.id,
            name,
            spec: JSON.stringify(spec),
            token_hash: hashToken(token),
            status: "active",
            joined_at: Date.now(),
          },
          { audience: "all", kind: "player-joined", data: { player: id, name } },
        );
      } catch (error) {
        if (/unique|duplicate/i.test(String((error as Error).message))) {
          // Another join took this name, or one that looks like it, meanwhile.
          const now = (await store.players(game.id)).map((p) => p.name);
          const like = now.includes(name) ? undefined : lookalikeOf(name, now);
          if (like !== undefined)
            throw new ApiError(
              "game/name-confusable",
              "lookalike",
              { name, other: like },
              { name, other: like },
            );
          throw new ApiError("game/name-taken", "taken", { name }, { name });
        }
        throw error;
      }
      return { gameId: game.id, playerId: id, name, token };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id",
      summary: "The game as the caller may see it: status, players, who has submitted, the party's state.",
      tag: "games",
      access: "member",
      params: GameParams,
    },
    async ({ params, caller }) => {
      const game = (await store.game(params.id))!;
      const world = await worlds.get(game.world_hash);
      const players = await store.players(game.id);
      const submitted = new Set((await store.submissions(game.id, game.tick + 1)).map((s) => s.player_id));
      const last = await store.lastTurn(game.id);
      const state = last ? readSave(world, last.state).state : null;
      return {
        id: game.id,
        status: game.status,
        tick: game.tick,
        seq: game.seq,
        world: game.world_hash,
        storyStart: game.story_start,
        ...(caller.role === "host" ? { invite: game.invite_code, seed: game.seed } : {}),
        you:
          caller.role === "player"
            ? { playerId: caller.player.id, name: caller.player.name }
            : { host: true },
        players: players.map((p) => ({
          id: p.id,
          name: p.name,
          status: p.status,
          submitted: submitted.has(p.id),
        })),
        state: state ? playerState(state, world) : null,
      };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/start",
      summary: "Start the game: the opening is narrated.",
      tag: "games",
      access: "host",
      params: GameParams,
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      if (game.status !== "lobby")
        throw new ApiError("game/state", "start-not-lobby", { status: game.status });
      const players = (await store.players(game.id)).filter((p) => p.status === "active");
      if (players.length === 0) throw new ApiError("game/no-players", "no-players");
      const opening = await runner
        .open(
          game,
          players.map((p) => JSON.parse(p.spec) as PlayerSpec),
        )
        .catch((error) => Promise.reject(asApiError(error)));
      return { status: "running", tick: 0, story: opening.story };
    },
  );

  for (const [action, from, to] of [
    ["pause", ["running"], "paused"],
    ["resume", ["paused"], "running"],
    ["end", ["lobby", "running", "paused"], "ended"],
  ] as const) {
    route(
      app,
      store,
      {
        method: "POST",
        url: `/games/:id/${action}`,
        summary: `${action[0]!.toUpperCase()}${action.slice(1)} the game.`,
        tag: "games",
        access: "host",
        params: GameParams,
      },
      async ({ params }) => {
        const changed = await store.setStatus(
          params.id,
          from,
          to,
          { audience: "all", kind: "status", data: { status: to } },
          to === "running" ? { turn_opened_at: Date.now() } : {},
        );
        if (!changed) {
          const game = (await store.game(params.id))!;
          if (game.status === to)
            throw new ApiError("game/state", "already", { status: game.status }, { status: game.status });
          throw new ApiError(
            "game/state",
            "cannot-change",
            { status: game.status, action },
            { status: game.status },
          );
        }
        if (to === "running") kick(runner, app, params.id, false);
        return { status: to };
      },
    );
  }

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/players/:player/kick",
      summary: "Remove a player: their token stops working and turns no longer wait for them.",
      tag: "games",
      access: "host",
      params: z.object({ id: Id, player: Id }),
    },
    async ({ params }) => {
      const kicked = await store.kick(params.id, params.player, {
        audience: "all",
        kind: "player-kicked",
        data: { player: params.player },
      });
      if (!kicked) throw new ApiError("player/not-found", "not-active", {}, { player: params.player });
      kick(runner, app, params.id, false);
      return { kicked: params.player };
    },
  );

  route(
    app,
    store,
    {
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
    },
    async ({ body, caller }) => {
      const player = (caller as Extract<Caller, { role: "player" }>).player;
      // The game as this request's authorization read it: the submission below is stored only while
      // the game is still running at that tick with no step holding it, so a newer state refuses it.
      const game = gameOf(caller);
      // A key already used answers its submission: looked up only when this one cannot be stored
      // (a repeat is rare; the store refuses it by its unique key), not before every submission.
      const earlier = () => store.submissionByKey(game.id, player.id, body.idempotencyKey);
      if (game.status !== "running") {
        const existing = await earlier();
        if (existing) return repeated(existing, body.text);
        throw new ApiError("game/state", "act-not-running", { status: game.status }, { status: game.status });
      }
      // A bare "y" or "no" while a quest is on offer answers it, as at the terminal's prompt (host/offers.ts).
      if (replyOf(body.text) !== null) {
        const last = await store.lastTurn(game.id);
        if (last) {
          const state = readSave(await worlds.get(game.world_hash), last.state).state;
          const meaning = readLine(body.text, state);
          if (meaning.type === "answer") {
            try {
              const done = await answerQuest(
                { store, worlds, runner },
                game.id,
                player,
                meaning.quest,
                meaning.answer,
              );
              return { answered: { ...done, answer: meaning.answer } };
            } finally {
              kick(runner, app, game.id, false);
            }
          }
          if (meaning.type !== "action") {
            const reason = replyProblem(meaning, {
              list: "The journal lists your quests.",
              answer: "answer with the Accept or Reject button of the one you mean.",
            });
            throw new ApiError("engine/refused", "engine-refused", { reason }, { reason: meaning.type });
          }
        }
      }
      // The action limit counts new submissions only: a retry of a stored key (a client that lost the
      // answer) is answered as before, never counted or refused.
      const quota = actions.peek(player.id, limits.actionsPerMinute);
      if (!quota.ok) {
        const existing = await earlier();
        if (existing) return repeated(existing, body.text);
        throw new ApiError(
          "rate/limited",
          "actions",
          { max: limits.actionsPerMinute, seconds: quota.retryAfterSeconds },
          {
            limit: limits.actionsPerMinute,
            retryAfterSeconds: quota.retryAfterSeconds,
            per: "token",
            counts: "actions",
          },
        );
      }
      const tick = game.tick + 1;
      const row = {
        id: newId(),
        game_id: game.id,
        player_id: player.id,
        tick,
        idempotency_key: body.idempotencyKey,
        text: body.text,
        created_at: Date.now(),
      };
      const stored = await store.addSubmission(row, {
        audience: "all",
        kind: "submission",
        data: { player: player.id, name: player.name, tick },
      });
      if (stored !== "ok") {
        const existing = await earlier();
        if (existing) return repeated(existing, body.text);
        if (stored === "busy") throw new ApiError("game/busy", "turn-moved", {}, { tick });
        throw new ApiError("submission/conflict", "submitted", {}, { tick });
      }
      actions.add(player.id);
      kick(runner, app, game.id, false);
      return { submission: row.id, tick, duplicate: false };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/turn",
      summary: "Run the turn now with the actions submitted so far (at least one).",
      tag: "turns",
      access: "host",
      params: GameParams,
      status: 202,
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      if (game.status !== "running")
        throw new ApiError("game/state", "turn-not-running", { status: game.status });
      const submitted = await store.submissions(game.id, game.tick + 1);
      if (submitted.length === 0) throw new ApiError("turn/no-actions", "force-empty");
      await store.forceTick(game.id, game.tick + 1);
      kick(runner, app, game.id, true);
      return { tick: game.tick + 1, turn: "running" };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/quests/:quest/:answer",
      summary:
        "Answer a quest offer (accept, reject) or abandon an accepted quest, for yourself: the first accept takes the quest for the party; reject and abandon apply once every active player has given them.",
      tag: "turns",
      access: "player",
      params: QuestAnswer,
    },
    async ({ params, caller }) => {
      const player = (caller as Extract<Caller, { role: "player" }>).player;
      const game = gameOf(caller);
      try {
        return await answerQuest({ store, worlds, runner }, game.id, player, params.quest, params.answer);
      } finally {
        // A turn that became due while the answer held the game runs now.
        kick(runner, app, game.id, false);
      }
    },
  );

  void Character;
}

function repeated(existing: { id: string; tick: number; text: string }, text: string) {
  if (existing.text !== text) throw new ApiError("submission/key-reused", "key-reused");
  return { submission: existing.id, tick: existing.tick, duplicate: true };
}

/** Runs the turn if it is due, after the answer: its result arrives as events. */
function kick(runner: Runner, app: FastifyInstance, game: string, force: boolean): void {
  void runner.maybeTurn(game, force).catch((error) => {
    const failure = asApiError(error);
    if (failure.code === "server/internal") app.log.error({ game, err: error }, "turn failed");
  });
}
