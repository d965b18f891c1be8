import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteData,
  type CassetteEntry,
} from "../../ai/cassette.ts";
import { exportPlaytest } from "../../author/playtest/export.ts";
import { ExportError, recordFromCassette } from "../../author/playtest/record.ts";
import type { TurnResult } from "../../engine/index.ts";
import { completeTrace, readSave, worldHash } from "../../engine/index.ts";
import type { ScriptRunner } from "../../engine/ports.ts";
import { formatTrace } from "../../host/trace.ts";
import { LogView, SaveView, Text, TraceView, TranscriptView } from "../answers.ts";
import { hashToken, newId, newInviteCode, newToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import type { NarratorFactory, Runner } from "../runner.ts";
import { GameParams, ImportGame, LogQuery, queryNumber } from "../schemas.ts";
import type { Game, Store } from "../store/store.ts";
import { storedPlayerResult } from "../views.ts";
import type { WorkPool } from "../work/pool.ts";
import type { WorldCache } from "../worlds.ts";

/** What the opening ran from: no trigger edits, nothing spent. */
const OPENING = { triggerEdits: { overrides: {}, deleted: [], added: [] }, consumed: {} };

/** History and saves: the transcript, the host's trace and log, export and import, the cassette. */
/**
 * The default of the most turns GET /games/:id/playtest replays: the replay runs inside the
 * request on the event loop (500 turns took about 2 s, docs/benchmarks.md), so a longer game is
 * refused with a coded error that points to the cassette and `taleforge export-test`.
 */
export const PLAYTEST_MAX_TURNS = 500;

export function historyRoutes(
  app: FastifyInstance,
  store: Store,
  worlds: WorldCache,
  pool: WorkPool,
  _runner: Runner,
  _narrator: NarratorFactory,
  scripts: ScriptRunner | undefined,
  playtestMaxTurns = PLAYTEST_MAX_TURNS,
) {
  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/transcript",
      summary: "The whole story so far: each step's actions and narration.",
      tag: "history",
      access: "member",
      params: GameParams,
      response: TranscriptView,
    },
    async ({ params }) => ({
      transcript: (await store.transcript(params.id)).map((t) => ({
        ...t,
        result: storedPlayerResult(t.result) as Record<string, unknown>,
      })),
    }),
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/save",
      summary: "Export the game as the save file `taleforge play --load` reads.",
      tag: "history",
      access: "host",
      params: GameParams,
      response: SaveView,
    },
    async ({ params, reply }) => {
      const last = await store.lastTurn(params.id);
      if (!last) throw new ApiError("game/state", "no-save");
      reply
        .type("application/json")
        .header("content-disposition", `attachment; filename="${params.id}.save.json"`);
      return reply.send(last.state);
    },
  );

  route(
    app,
    store,
    {
      method: "POST",
      url: "/games/import",
      summary: "Import a save file as a new running game; players join by claiming its characters.",
      tag: "history",
      access: "public",
      body: ImportGame,
      status: 201,
      bodyLimit: 8 * 1024 * 1024 + 4096,
      response: z.object({
        id: z.string(),
        hostToken: z.string(),
        invite: z.string(),
        characters: z.array(z.string()),
      }),
    },
    async ({ body, request }) => {
      const stored = await store.world(body.world);
      if (!stored)
        throw new ApiError("world/not-found", "no-world", { hash: body.world }, { hash: body.world });
      // Read in a work thread: a deep or huge save took seconds of the event loop (every other game).
      const read = await pool.run({
        kind: "import",
        world: { hash: stored.hash, text: stored.text, name: stored.name },
        save: body.save,
      });
      if (read.kind === "refused") throw new ApiError(...read.args);
      if (read.kind !== "imported") throw new Error(`an import answered ${read.kind}`);
      const hostToken = newToken("host");
      const now = Date.now();
      const game: Game = {
        id: newId(),
        event_seq: 0,
        world_hash: body.world,
        status: "running",
        host_token_hash: hashToken(hostToken),
        invite_code: newInviteCode(),
        seed: read.seed,
        story_start: read.storyStart,
        game_mode: null,
        narrator: body.narrator ?? "server",
        seq: 0,
        tick: read.tick,
        forced_tick: null,
        turn_timeout_ms: null,
        turn_opened_at: now,
        lease_owner: null,
        lease_until: null,
        created_at: now,
        updated_at: now,
        // Its maker, for the fair share of step slots: many games of one client share one part.
        creator: `address:${request.ip}`,
      };
      await store.importGame(game, {
        game_id: game.id,
        seq: 0,
        kind: "import",
        parent: null,
        tick: read.tick,
        state: read.state,
        inputs: "{}",
        cassette: "[]",
        trace: null,
        result: "{}",
        narration: "",
        created_at: now,
      });
      return { id: game.id, hostToken, invite: game.invite_code, characters: read.characters };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/trace",
      summary:
        "A step's trace (host only; `?seq=`, by default the last turn's): the same as /trace in play and `taleforge explain`, as JSON and as text.",
      tag: "history",
      access: "host",
      params: GameParams,
      query: z.object({ seq: queryNumber(0).optional() }),
      response: TraceView,
    },
    async ({ params, query }) => {
      const game = (await store.game(params.id))!;
      // By default the last step with a trace: a quest answer after the last turn has none of its own.
      const seq = query.seq ?? (await store.lastTracedSeq(game.id)) ?? game.seq - 1;
      const row = await store.turn(game.id, seq);
      if (!row || row.trace === null) throw new ApiError("game/state", "no-trace", { seq }, { seq });
      const result = await storedResult(JSON.parse(row.trace) as TurnResult, game, seq);
      return {
        seq,
        tick: row.tick,
        // The engine's trace (src/engine/trace.ts), declared as a JSON object.
        trace: result.trace as unknown as Record<string, unknown>,
        fired: result.fired,
        diff: result.diff,
        text: formatTrace(result, { color: false }),
      };
    },
  );

  /**
   * A stored step's result as the trace view reads it. Steps stored before
   * results carried their conditions' subjects and the spent triggers are
   * completed from the previous step's save (the opening, step 0, ran from no
   * edits and nothing spent).
   */
  async function storedResult(result: TurnResult, game: Game, seq: number): Promise<TurnResult> {
    if (result.trace.spent !== undefined) return result;
    const world = await worlds.get(game.world_hash);
    const parent = (await store.turn(game.id, seq))?.parent ?? null;
    const before = parent !== null ? await store.turn(game.id, Number(parent)) : undefined;
    const state = before ? readSave(world, before.state).state : OPENING;
    return completeTrace(result, world, state);
  }

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/log",
      summary:
        "The game's log (spec 6), host only, filtered by tick, type and trigger; a page at a time (limit, offset, nextOffset).",
      tag: "history",
      access: "host",
      params: GameParams,
      query: LogQuery,
      response: LogView,
    },
    async ({ params, query }) => {
      const limit = query.limit ?? 1000;
      const offset = query.offset ?? 0;
      // One entry past the page says whether there is a next one, without counting the whole log.
      const rows = await store.log(
        params.id,
        {
          ...(query.tick !== undefined ? { tick: query.tick } : {}),
          ...(query.type !== undefined ? { type: query.type } : {}),
          ...(query.trigger !== undefined ? { trigger: query.trigger } : {}),
        },
        limit + 1,
        offset,
      );
      return {
        entries: rows.slice(0, limit).map((l) => ({
          tick: l.tick,
          phase: l.phase,
          trigger: l.trigger,
          type: l.type,
          message: l.message,
        })),
        ...(rows.length > limit ? { nextOffset: offset + limit } : {}),
      };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/cassette",
      summary: "The game as a cassette (JSON Lines) that `taleforge play --replay` plays back exactly.",
      tag: "history",
      access: "host",
      params: GameParams,
      produces: "application/x-ndjson",
      response: Text,
    },
    async ({ params, reply }) => {
      const game = (await store.game(params.id))!;
      const { header, entries } = await cassetteOf(game);
      const lines = [JSON.stringify(header)];
      for (const entry of entries) lines.push(JSON.stringify(entry));
      reply.type("application/x-ndjson");
      return reply.send(`${lines.join("\n")}\n`);
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/games/:id/playtest",
      summary:
        "The game as a play-test (YAML) that `taleforge test` replays exactly: each turn's AI answers pinned, what it changed expected (docs/playtests.md). `?world=` names the world file in it.",
      tag: "history",
      access: "host",
      params: GameParams,
      query: z.object({ world: z.string().min(1).max(500).optional() }),
      produces: "application/yaml",
      response: Text,
    },
    async ({ params, query, reply }) => {
      const game = (await store.game(params.id))!;
      if (game.tick > playtestMaxTurns)
        throw new ApiError("game/playtest-too-long", "too-long", { turns: game.tick, max: playtestMaxTurns });
      const world = await worlds.get(game.world_hash);
      const cassette = await cassetteOf(game);
      let text: string;
      try {
        const record = await recordFromCassette(world, cassette, scripts, `game ${game.id}`);
        text = exportPlaytest(record, { world: query.world ?? "world.json", source: `game ${game.id}` }).text;
      } catch (error) {
        if (error instanceof ExportError)
          throw new ApiError("game/state", "no-playtest", { reason: error.message });
        throw error;
      }
      reply
        .type("application/yaml; charset=utf-8")
        .header("content-disposition", `attachment; filename="${params.id}.test.yaml"`);
      return reply.send(text);
    },
  );

  /**
   * The steps a replay of the game's current branch plays, in order: the branch's steps, each retried
   * or altered one after the step it replaced (the host's retry and alter act on that one), so that
   * `taleforge play --replay` takes exactly the steps the server took.
   */
  async function cassetteSteps(game: string): Promise<number[]> {
    const path = await store.path(game);
    const replaced = new Map<number, number>();
    for (const row of await store.steps(game)) {
      const inputs = JSON.parse(row.inputs) as { retryOf?: number; altered?: { from: number } };
      const from = inputs.altered?.from ?? inputs.retryOf;
      if (from !== undefined) replaced.set(Number(row.seq), from);
    }
    const order: number[] = [];
    const add = (seq: number) => {
      const from = replaced.get(seq);
      if (from !== undefined) add(from);
      order.push(seq);
    };
    for (const seq of path) add(seq);
    return order;
  }

  /** The game's cassette: the header a replay starts from, and every step's stored entries in order. */
  async function cassetteOf(game: Game): Promise<CassetteData> {
    const order = await cassetteSteps(game.id);
    const stored = new Map((await store.cassette(game.id, order)).map((r) => [Number(r.seq), r]));
    const rows = order.flatMap((seq) => stored.get(seq) ?? []);
    if (rows.length === 0) throw new ApiError("game/state", "no-replay");
    const first = await store.turn(game.id, 0);
    const world = await worlds.get(game.world_hash);
    const players =
      first?.kind === "opening" ? (JSON.parse(first.inputs) as { players: unknown[] }).players : undefined;
    const header = {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      provider: game.narrator,
      model: game.narrator,
      embeddings: false,
      setup: {
        worldHash: worldHash(world),
        seed: game.seed,
        gameMode: game.game_mode,
        ...(game.story_start !== null ? { storyStart: game.story_start } : {}),
        ...(players ? { players } : {}),
        ...(first?.kind === "import" ? { load: first.state } : {}),
      },
    } as CassetteData["header"];
    const entries: CassetteEntry[] = [];
    for (const row of rows) entries.push(...(JSON.parse(row.cassette) as CassetteEntry[]));
    return { header, entries };
  }
}
