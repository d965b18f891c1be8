import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { DiffEntry } from "../../engine/index.ts";
import { readSave } from "../../engine/index.ts";
import { NarrativeNote, NarrativeNotes, Text } from "../answers.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import { GameParams } from "../schemas.ts";
import type { Store } from "../store/store.ts";
import { narrativeNotes, unclaimed } from "../views.ts";
import type { WorkPool } from "../work/pool.ts";
import type { WorldCache } from "../worlds.ts";

export { NarrativeNote, NarrativeNotes };

/** What an invite link shows before joining: the game's world and which characters are free. */
export const InviteView = z.object({
  game: z.string(),
  world: z.string(),
  status: z.string(),
  storyStart: z.string().nullable(),
  players: z.array(z.string()),
  /** After the start, the party's characters nobody plays yet (only those can be joined as). */
  claimable: z.array(z.string()).nullable(),
});

/**
 * What the party sees of its game beside the story: the realm map where it
 * stands (with the places it knows), and when narrative events began and
 * ended. For every member of the game; neither holds hidden fields.
 */
export function partyRoutes(app: FastifyInstance, store: Store, worlds: WorldCache, pool: WorkPool) {
  route(
    app,
    store,
    {
      method: "GET",
      url: "/invites/:code",
      summary: "What an invite code opens: the game's world, status and players, to choose a character.",
      tag: "games",
      access: "public",
      params: z.object({ code: z.string().min(4).max(40) }),
      response: InviteView,
    },
    async ({ params }) => {
      const game = await store.gameByInvite(params.code.trim().toUpperCase());
      if (!game) throw new ApiError("game/invite-unknown", "no-invite");
      const all = await store.players(game.id);
      const players = all.filter((p) => p.status === "active").map((p) => p.name);
      let claimable: string[] | null = null;
      if (game.status === "ended") claimable = [];
      else if (game.status !== "lobby") {
        const last = await store.lastTurn(game.id);
        const party = last ? readSave(await worlds.get(game.world_hash), last.state).state.party : [];
        // What POST /games/join accepts: not a kicked player's character (their seat is not reopened).
        claimable = unclaimed(party, all);
      }
      return {
        game: game.id,
        world: game.world_hash,
        status: game.status,
        storyStart: game.story_start,
        players,
        claimable,
      };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/map.svg",
      summary:
        "The realm map where the party stands, as SVG (what `taleforge map --save` draws): its position and the places it knows.",
      tag: "games",
      access: "member",
      params: GameParams,
      produces: "image/svg+xml",
      response: Text,
    },
    async ({ params, reply }) => {
      const game = (await store.game(params.id))!;
      const world = await worlds.get(game.world_hash);
      const last = await store.lastTurn(game.id);
      if (!last) throw new ApiError("game/state", "no-map");
      const state = readSave(world, last.state).state;
      // Drawn in a work thread (a large realm takes a while), like the world's map.
      const drawn = await pool.run({
        kind: "map",
        world,
        realm: state.position.realm,
        options: { known: state.known, party: state.position },
      });
      if (drawn.kind !== "map") throw new ApiError("game/state", "no-map");
      const svg = drawn.svg;
      reply.type("image/svg+xml").header("cache-control", "no-store");
      return reply.send(svg);
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/narrative-events",
      summary: "When the game's narrative events started and ended, by tick.",
      tag: "games",
      access: "member",
      params: GameParams,
      response: NarrativeNotes,
    },
    async ({ params }) => {
      const game = (await store.game(params.id))!;
      const world = await worlds.get(game.world_hash);
      const notes: z.infer<typeof NarrativeNote>[] = [];
      // The steps of the game's current branch.
      for (const seq of await store.path(game.id)) {
        const row = await store.turn(game.id, seq);
        if (!row?.trace) continue;
        const diff = (JSON.parse(row.trace) as { diff?: DiffEntry[] }).diff ?? [];
        notes.push(...narrativeNotes(diff, world, row.tick));
      }
      return { notes };
    },
  );
}
