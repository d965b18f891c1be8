import type { FastifyInstance } from "fastify";
import { readSave } from "../../engine/index.ts";
import { StorageView } from "../answers.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import { GameParams } from "../schemas.ts";
import type { Store } from "../store/store.ts";
import type { WorldCache } from "../worlds.ts";

/**
 * The host's storage inspector: what the world's scripts keep between turns
 * (`storage`), the narrative events' states, the triggers already consumed
 * and the scripts' edits of the trigger map. Host only: storage is hidden
 * from players.
 */
export function storageRoutes(app: FastifyInstance, store: Store, worlds: WorldCache) {
  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/storage",
      summary:
        "The game's script storage, narrative events, consumed triggers and trigger edits (host only).",
      tag: "history",
      access: "host",
      params: GameParams,
      response: StorageView,
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      const last = await store.lastTurn(game.id);
      if (!last) throw new ApiError("game/state", "no-storage");
      const world = await worlds.get(game.world_hash);
      const state = readSave(world, last.state).state;
      return {
        tick: state.tick,
        storage: state.storage,
        events: state.events,
        consumed: state.consumed,
        triggerEdits: state.triggerEdits,
      };
    },
  );
}
