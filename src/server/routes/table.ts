import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { bearer, hashToken, newId, newToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { gameEvents } from "../events.ts";
import { route } from "../route.ts";
import type { Runner } from "../runner.ts";
import { GameParams, Id } from "../schemas.ts";
import type { Store } from "../store/store.ts";

/** The host token hash of a game whose host role waits for `player` to take it (never a token's hash). */
const offerPrefix = (player: string) => `offer:${player}:`;

/**
 * What the party's table needs beyond the game's own routes (issue 34): a
 * Retry anyone at the table may press after a failed turn, a seat link the
 * host makes for a player who lost their device, a seat the host frees for
 * someone else to take, and the host role handed to a player.
 */
export function tableRoutes(app: FastifyInstance, store: Store, runner: Runner) {
  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/retry",
      summary:
        "Run the turn now if it is ready (every active player has acted, or the host forced it): the Retry of a failed turn. Never runs a turn that is not ready.",
      tag: "turns",
      access: "member",
      params: GameParams,
      response: z.object({ tick: z.number(), turn: z.enum(["ran", "waiting", "busy", "idle"]) }),
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      if (game.status !== "running")
        throw new ApiError("game/state", "turn-not-running", { status: game.status });
      // The same call as the sweeper's: it runs exactly the actions submitted, or nothing.
      const turn = await runner.maybeTurn(game.id, false);
      return { tick: game.tick + 1, turn };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/players/:player/seat",
      summary:
        "A new token for a player's seat (their device was lost): the old token stops working, the new one plays the same character.",
      tag: "games",
      access: "host",
      params: z.object({ id: Id, player: Id }),
      response: z.object({ playerId: z.string(), name: z.string(), token: z.string() }),
    },
    async ({ params }) => {
      const token = newToken("player");
      const player = await store.db
        .selectFrom("players")
        .select(["id", "name"])
        .where("id", "=", params.player)
        .where("game_id", "=", params.id)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!player) throw new ApiError("player/not-found", "not-active", {}, { player: params.player });
      await store.db
        .updateTable("players")
        .set({ token_hash: hashToken(token) })
        .where("id", "=", player.id)
        .where("game_id", "=", params.id)
        .execute();
      return { playerId: player.id, name: player.name, token };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/players/:player/free",
      summary:
        "Free a player's seat: their token stops working, turns stop waiting for them, and the next to join with the invite as their character takes the seat (and its history).",
      tag: "games",
      access: "host",
      params: z.object({ id: Id, player: Id }),
      response: z.object({ freed: z.string(), name: z.string() }),
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      if (game.status === "ended") throw new ApiError("game/state", "ended");
      const seat = await store.moveSeat(
        params.id,
        { id: params.player },
        "active",
        // A hash no token has: nobody holds the seat until it is taken.
        { status: "open", tokenHash: `open:${newId()}` },
        (p) => gameEvents.seatFreed({ player: p.id, name: p.name }),
      );
      if (!seat) throw new ApiError("player/not-found", "not-active", {}, { player: params.player });
      // The turn may now be complete without them.
      void runner.maybeTurn(params.id, false).catch(() => {});
      return { freed: seat.id, name: seat.name };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/host",
      summary:
        "Hand the host role to a player of the game: this host token stops working at once, and the player takes the role with POST /games/:id/host/claim (their page does it when told).",
      tag: "games",
      access: "host",
      params: GameParams,
      body: z.object({ player: Id }),
      response: z.object({ offered: z.string(), name: z.string() }),
    },
    async ({ params, body, request }) => {
      const game = (await store.game(params.id))!;
      if (game.status === "ended") throw new ApiError("game/state", "ended");
      const player = await store.db
        .selectFrom("players")
        .select(["id", "name"])
        .where("id", "=", body.player)
        .where("game_id", "=", params.id)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!player) throw new ApiError("player/not-found", "not-active", {}, { player: body.player });
      const handed = await store.swapHost(
        params.id,
        { hash: hashToken(bearer(request.headers.authorization) ?? "") },
        `${offerPrefix(player.id)}${newId()}`,
        gameEvents.hostOffered({ player: player.id, name: player.name }),
      );
      // Another request of this host handed it first.
      if (!handed) throw new ApiError("auth/host-only", "host-only");
      return { offered: player.id, name: player.name };
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/:id/host/claim",
      summary:
        "Take the host role the host handed to you: answers the new host token (keep it; your player token still plays your character).",
      tag: "games",
      access: "player",
      params: GameParams,
      response: z.object({ hostToken: z.string() }),
    },
    async ({ params, caller }) => {
      if (caller.role !== "player") throw new ApiError("auth/player-only", "player-only");
      const hostToken = newToken("host");
      const taken = await store.swapHost(
        params.id,
        { prefix: offerPrefix(caller.player.id) },
        hashToken(hostToken),
        gameEvents.hostChanged({ player: caller.player.id, name: caller.player.name }),
      );
      if (!taken) throw new ApiError("host/no-offer", "not-offered");
      return { hostToken };
    },
  );
}
