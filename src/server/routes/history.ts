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
import {
  completeTrace,
  DEFAULT_MAX_JUDGED,
  readSave,
  restoreSession,
  worldHash,
} from "../../engine/index.ts";
import type { ScriptRunner } from "../../engine/ports.ts";
import { formatTrace } from "../../host/trace.ts";
import { STORAGE_MAX_CHARS } from "../../sandbox/index.ts";
import { MAX_DEPTH as WORLD_MAX_DEPTH } from "../../world/load.ts";
import { findExcessiveNesting } from "../../world/source.ts";
import { LogView, SaveView, Text, TraceView, TranscriptView } from "../answers.ts";
import { hashToken, newId, newInviteCode, newToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import type { NarratorFactory, Runner } from "../runner.ts";
import { GameParams, ImportGame, isReadableName, LogQuery, MAX_PLAYERS, queryNumber } from "../schemas.ts";
import type { Game, Store } from "../store/store.ts";
import { storedPlayerResult } from "../views.ts";
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
  _runner: Runner,
  narrator: NarratorFactory,
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
    async ({ body }) => {
      const world = await worlds.get(body.world);
      let state: ReturnType<typeof readSave>["state"];
      let text: string;
      // Before the engine reads it: its recursive walks overflow the stack on a save nested thousands deep.
      const deep = findExcessiveNesting(body.save, SAVE_MAX_DEPTH);
      if (deep)
        throw new ApiError(
          "save/invalid",
          "too-deep",
          { limit: SAVE_MAX_DEPTH, offset: deep.offset },
          { limit: SAVE_MAX_DEPTH, offset: deep.offset },
        );
      // Before the engine reads it (a party of thousands took seconds of the event loop to restore).
      withinCaps(rawSave(body.save));
      try {
        const session = await restoreSession(world, body.save, {
          ai: narrator(world, { gameMode: null, narrator: "offline" }),
          scripts,
          validate: false,
        });
        state = session.state;
        text = session.save();
      } catch (error) {
        throw new ApiError("save/invalid", "cannot-load", { reason: (error as Error).message });
      }
      withinCaps({ state });
      const hostToken = newToken("host");
      const now = Date.now();
      const game: Game = {
        id: newId(),
        event_seq: 0,
        world_hash: body.world,
        status: "running",
        host_token_hash: hashToken(hostToken),
        invite_code: newInviteCode(),
        seed: state.seed,
        story_start: state.storyStart,
        game_mode: null,
        narrator: body.narrator ?? "server",
        seq: 0,
        tick: state.tick,
        forced_tick: null,
        turn_timeout_ms: null,
        turn_opened_at: now,
        lease_owner: null,
        lease_until: null,
        created_at: now,
        updated_at: now,
      };
      await store.importGame(game, {
        game_id: game.id,
        seq: 0,
        kind: "import",
        tick: state.tick,
        state: text,
        inputs: "{}",
        cassette: "[]",
        trace: null,
        result: "{}",
        narration: "",
        created_at: now,
      });
      const characters = state.party.filter((c) => c.kind === "player").map((c) => c.name);
      return { id: game.id, hostToken, invite: game.invite_code, characters };
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
    const before = seq > 0 ? await store.turn(game.id, seq - 1) : undefined;
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

  /** The game's cassette: the header a replay starts from, and every step's stored entries in order. */
  async function cassetteOf(game: Game): Promise<CassetteData> {
    const rows = await store.cassette(game.id);
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

/**
 * How deep a save may nest: a game's saves nest a few levels, scripts' storage
 * values at most VALUE_MAX_DEPTH below it; the world format's own cap.
 */
const SAVE_MAX_DEPTH = WORLD_MAX_DEPTH;

interface RawSave {
  settings?: { maxJudged?: unknown };
  state?: { party?: unknown; storage?: unknown };
}

/** A save's text as written, before the engine reads it; undefined when it is not an object. */
function rawSave(save: string): RawSave | undefined {
  try {
    const file = JSON.parse(save) as unknown;
    if (file === null || typeof file !== "object") return undefined;
    const { settings, state } = file as Record<string, unknown>;
    const object = (v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined);
    return { settings: object(settings) as RawSave["settings"], state: object(state) as RawSave["state"] };
  } catch {
    return undefined; // The engine says what is wrong with it.
  }
}

/**
 * What a game on this server can grow to, and no more: an imported party of
 * thousands, or storage past the scripts' cap, made every step of that game
 * stop the event loop (every other game) for seconds, and stored megabytes per
 * step.
 */
function withinCaps(save: RawSave | undefined): void {
  // The cap on AI-judged triggers per phase drives calls to the narrator's provider: no more than a game here has.
  const maxJudged = save?.settings?.maxJudged;
  if (
    maxJudged !== undefined &&
    !(
      typeof maxJudged === "number" &&
      Number.isInteger(maxJudged) &&
      maxJudged >= 0 &&
      maxJudged <= DEFAULT_MAX_JUDGED
    )
  )
    throw new ApiError(
      "save/invalid",
      "max-judged",
      {
        value:
          typeof maxJudged === "number"
            ? String(maxJudged)
            : `a ${maxJudged === null ? "null" : typeof maxJudged}`,
        max: DEFAULT_MAX_JUDGED,
      },
      { field: "settings.maxJudged", limit: DEFAULT_MAX_JUDGED },
    );
  const state = save?.state;
  if (state === undefined) return;
  const party = Array.isArray(state.party) ? (state.party as { kind?: unknown; name?: unknown }[]) : [];
  // Names typed at join are held to this; a save's names are shown to every player the same way.
  const unreadable = party.findIndex((c) => typeof c?.name === "string" && !isReadableName(c.name));
  if (unreadable >= 0)
    throw new ApiError(
      "save/invalid",
      "unreadable-name",
      { at: `state.party[${unreadable}].name` },
      { at: `state.party[${unreadable}].name` },
    );
  const count = party.filter((c) => c?.kind === "player").length;
  if (count > MAX_PLAYERS)
    throw new ApiError(
      "save/invalid",
      "too-many-players",
      { count, max: MAX_PLAYERS },
      { players: count, limit: MAX_PLAYERS },
    );
  let chars = 0;
  try {
    chars = JSON.stringify(state.storage ?? null).length;
  } catch {
    return; // Nested past the stack: the engine refuses it as damaged.
  }
  if (chars > STORAGE_MAX_CHARS)
    throw new ApiError(
      "save/invalid",
      "storage-too-large",
      { chars, max: STORAGE_MAX_CHARS },
      { storageChars: chars, limit: STORAGE_MAX_CHARS },
    );
}
