import { DEFAULT_MAX_JUDGED, readSave, writeSave } from "../../engine/index.ts";
import { STORAGE_MAX_CHARS } from "../../sandbox/index.ts";
import { MAX_DEPTH as WORLD_MAX_DEPTH } from "../../world/load.ts";
import { checkForServe } from "../../world/repair.ts";
import type { World } from "../../world/schema/index.ts";
import { findExcessiveNesting } from "../../world/source.ts";
import type { ApiError } from "../errors.ts";
import { isReadableName, MAX_PLAYERS } from "../schemas.ts";

/** What `new ApiError(...)` takes: a refusal crosses from a work thread as these, and is raised there. */
export type Refusal = ConstructorParameters<typeof ApiError>;

/** A refusal thrown inside a work thread's task: the task answers `{ kind: "refused", args }`. */
export class Refused extends Error {
  constructor(readonly args: Refusal) {
    super(args[0]);
  }
}

/** A save read for `POST /games/import`: its text as this engine writes it, and what the game row needs. */
export interface ImportedSave {
  kind: "imported";
  state: string;
  tick: number;
  seed: number;
  storyStart: string | null;
  characters: string[];
}

/**
 * How deep a save may nest: a game's saves nest a few levels, scripts' storage
 * values at most VALUE_MAX_DEPTH below it; the world format's own cap.
 */
const SAVE_MAX_DEPTH = WORLD_MAX_DEPTH;

/** A work thread's stored worlds read back, by hash: an import of a game on the same world reads it once. */
const worlds = new Map<string, World>();
const WORLDS_KEPT = 4;

/** A stored world read back in the thread: it passed every rule when it was uploaded (as storedWorld). */
function storedWorldOf(hash: string, text: string, name: string): World {
  const kept = worlds.get(hash);
  if (kept) return kept;
  const result = checkForServe(text, name, []);
  if (result.errorCount > 0 || result.world === undefined)
    throw new Refused(["world/invalid", "has-errors", { count: result.errorCount }, {}]);
  worlds.set(hash, result.world);
  while (worlds.size > WORLDS_KEPT) worlds.delete(worlds.keys().next().value!);
  return result.world;
}

/**
 * Reads a save sent to `POST /games/import` against its stored world, in a work thread (pool.ts):
 * an 8 MiB save nested deep, or a party of thousands, took seconds of the event loop to read, and
 * anyone may send one. Refusals (`save/invalid`) come back as a `Refused`'s arguments.
 */
export function readImport(world: { hash: string; text: string; name: string }, save: string): ImportedSave {
  // Before the engine reads it: its recursive walks overflow the stack on a save nested thousands deep.
  const deep = findExcessiveNesting(save, SAVE_MAX_DEPTH);
  if (deep)
    throw new Refused([
      "save/invalid",
      "too-deep",
      { limit: SAVE_MAX_DEPTH, offset: deep.offset },
      { limit: SAVE_MAX_DEPTH, offset: deep.offset },
    ]);
  // Before the engine reads it (a party of thousands took seconds of the event loop to restore).
  withinCaps(rawSave(save));
  const played = storedWorldOf(world.hash, world.text, world.name);
  let read: ReturnType<typeof readSave>;
  let text: string;
  try {
    read = readSave(played, save);
    text = writeSave(played, read.state, read.maxJudged);
  } catch (error) {
    throw new Refused(["save/invalid", "cannot-load", { reason: (error as Error).message }]);
  }
  const { state } = read;
  withinCaps({ state });
  return {
    kind: "imported",
    state: text,
    tick: state.tick,
    seed: state.seed,
    storyStart: state.storyStart ?? null,
    characters: state.party.filter((c) => c.kind === "player").map((c) => c.name),
  };
}

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
    throw new Refused([
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
    ]);
  const state = save?.state;
  if (state === undefined) return;
  const party = Array.isArray(state.party) ? (state.party as { kind?: unknown; name?: unknown }[]) : [];
  // Names typed at join are held to this; a save's names are shown to every player the same way.
  const unreadable = party.findIndex((c) => typeof c?.name === "string" && !isReadableName(c.name));
  if (unreadable >= 0)
    throw new Refused([
      "save/invalid",
      "unreadable-name",
      { at: `state.party[${unreadable}].name` },
      { at: `state.party[${unreadable}].name` },
    ]);
  const count = party.filter((c) => c?.kind === "player").length;
  if (count > MAX_PLAYERS)
    throw new Refused([
      "save/invalid",
      "too-many-players",
      { count, max: MAX_PLAYERS },
      { players: count, limit: MAX_PLAYERS },
    ]);
  let chars = 0;
  try {
    chars = JSON.stringify(state.storage ?? null).length;
  } catch {
    return; // Nested past the stack: the engine refuses it as damaged.
  }
  if (chars > STORAGE_MAX_CHARS)
    throw new Refused([
      "save/invalid",
      "storage-too-large",
      { chars, max: STORAGE_MAX_CHARS },
      { storageChars: chars, limit: STORAGE_MAX_CHARS },
    ]);
}
