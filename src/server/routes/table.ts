import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { hashToken, newToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import type { Runner } from "../runner.ts";
import { GameParams, Id } from "../schemas.ts";
import type { Store } from "../store/store.ts";

/**
 * What the party's table needs beyond the game's own routes (issue 34): a
 * Retry anyone at the table may press after a failed turn, and a seat link
 * the host makes for a player who lost their device.
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
}
