import { formatPath } from "../world/diagnostic.ts";
import { plainIssue } from "../world/plain-issues.ts";
import type { World } from "../world/schema/index.ts";
import { EngineError } from "./errors.ts";
import { hashText } from "./hash.ts";
import { checkSave, type WorldParts, worldPartsOf } from "./save-check.ts";
import { StateSchema } from "./save-schema.ts";
import { ENGINE_VERSION, SEMANTIC_VERSION } from "./scripts.ts";
import type { SessionState } from "./state.ts";
import { indexWorld } from "./world-index.ts";

/**
 * The save format (ink's StoryState: a version and the oldest version that
 * can read it). A save is one JSON object holding the whole SessionState, the
 * world's hash and the session settings; the world itself is not in it.
 */
export const SAVE_FORMAT = "taleforge-save";
/**
 * The version this engine writes. Bump it when the state changes shape. Version 2 added `summary`;
 * version 3 the game's history (issue 33), which older engines skip: they resume the current state.
 */
export const SAVE_VERSION = 3;
/** The oldest engine save version that can read what this engine writes. */
export const MIN_READABLE_VERSION = 1;

export interface SaveFile {
  format: typeof SAVE_FORMAT;
  version: number;
  minReadableVersion: number;
  engine: { engineVersion: number; semanticVersion: string };
  worldHash: string;
  settings: { maxJudged: number };
  /** Fingerprints of the triggers and quests the game depends on, to name what an edit of the world changed (save-check.ts). */
  worldParts?: WorldParts;
  state: SessionState;
  /**
   * The game's history as its host keeps it (src/host/history.ts), opaque to the engine; absent
   * in saves before version 3 and in saves of a bare session, which load as one branch.
   */
  history?: unknown;
}

const hashes = new WeakMap<World, string>();

/** The world's identity: a hash of its JSON text (map order included, as it decides trigger order). */
export function worldHash(world: World): string {
  let hash = hashes.get(world);
  if (hash === undefined) {
    hash = hashText(JSON.stringify(world));
    hashes.set(world, hash);
  }
  return hash;
}

export function writeSave(world: World, state: SessionState, maxJudged: number, history?: unknown): string {
  const file: SaveFile = {
    format: SAVE_FORMAT,
    version: SAVE_VERSION,
    minReadableVersion: MIN_READABLE_VERSION,
    engine: { engineVersion: ENGINE_VERSION, semanticVersion: SEMANTIC_VERSION },
    worldHash: worldHash(world),
    settings: { maxJudged },
    worldParts: worldPartsOf(indexWorld(world), state),
    state,
  };
  if (history !== undefined) file.history = history;
  return JSON.stringify(file);
}

/** What readSave gives: the state to resume, and what an edit of the world changed that matters to it. */
export interface ReadSave {
  state: SessionState;
  maxJudged: number;
  /** The world is not the one the save was written on (another hash), but the save fits it. */
  edited: boolean;
  /** What the world's edit changed that matters to this game, one sentence each (empty when unchanged). */
  warnings: string[];
  /** The save's history (SaveFile.history), unread; undefined when it has none. */
  history: unknown;
  /**
   * The save was taken as it is (ReadSaveOptions.trusted, and this engine's own on the same world):
   * its history may be read the same way (the host's readHistory with `trusted`).
   */
  trusted: boolean;
}

export interface ReadSaveOptions {
  /**
   * The save is one this program wrote and kept where nothing else writes (a server's own store):
   * when it is of this engine's save version and engine version and on the very world it was
   * written on, its state is taken as it is, without the schema and world checks (a few percent of
   * a server's turn, at every step). Any other save (an import, a file, an older engine's, an
   * edited world's) is checked in full as always. Never set it for a save that came from outside.
   */
  trusted?: boolean;
}

/**
 * Reads a save (its JSON text or the parsed object) for a world; throws a
 * coded error when it cannot be resumed. A save of an edited version of the
 * world loads whenever it still fits (see save-check.ts), with warnings.
 */
export function readSave(world: World, saved: unknown, options: ReadSaveOptions = {}): ReadSave {
  let value: unknown = saved;
  if (typeof saved === "string") {
    try {
      value = JSON.parse(saved);
    } catch (error) {
      throw new EngineError("save/malformed", "json", { reason: `${(error as Error).message}` });
    }
  }
  const file = value as Partial<SaveFile> | null;
  if (file === null || typeof file !== "object" || file.format !== SAVE_FORMAT) {
    throw new EngineError("save/malformed", "format", { format: SAVE_FORMAT });
  }
  if (!Number.isInteger(file.version) || !Number.isInteger(file.minReadableVersion)) {
    throw new EngineError("save/malformed", "version");
  }
  if (file.minReadableVersion! > SAVE_VERSION) {
    throw new EngineError(
      "save/future-version",
      "newer",
      { minReadableVersion: file.minReadableVersion!, version: file.version!, engineVersion: SAVE_VERSION },
      { version: file.version, minReadableVersion: file.minReadableVersion },
    );
  }
  // Another hash is an edited world (or another one): the save loads when it still fits (save-check.ts).
  const expected = worldHash(world);
  const edited = file.worldHash !== expected;
  if (options.trusted === true && !edited && isOwnSave(file)) {
    // What checkSave answers for such a save: a copy the caller owns (a parsed text is one already).
    const own = typeof saved === "string" ? file.state : structuredClone(file.state);
    const maxJudged = file.settings?.maxJudged;
    return {
      state: own as SessionState,
      maxJudged: Number.isInteger(maxJudged) ? maxJudged! : 20,
      edited: false,
      warnings: [],
      history: file.history,
      trusted: true,
    };
  }
  let state: unknown;
  let parsed: ReturnType<typeof StateSchema.safeParse>;
  try {
    state = upgrade(file.state);
    // Plain words for what is wrong ("must be 0 or more"), not zod's ("Too small: expected number to be >=0").
    parsed = StateSchema.safeParse(state, { error: plainIssue });
  } catch (error) {
    throw new EngineError("save/malformed", "state", { reason: `${(error as Error).message}` });
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineError("save/malformed", edited ? "damaged-edited" : "damaged", {
      path: formatPath(["state", ...(issue.path as (string | number)[])]),
      issue: issue.message,
    });
  }
  const maxJudged = file.settings?.maxJudged;
  const parts = file.worldParts !== null && typeof file.worldParts === "object" ? file.worldParts : undefined;
  // checkSave works on a structured clone of the original object, not zod's copy: key order is part of a byte-identical resume.
  const checked = checkSave(indexWorld(world), state as SessionState, edited, parts);
  if (checked.problems.length > 0) {
    const list = checked.problems.map((p) => `\n- ${p}`).join("");
    const count = checked.problems.length;
    throw edited
      ? new EngineError(
          "save/world-mismatch",
          count === 1 ? "one" : "many",
          { saved: String(file.worldHash), world: expected, count, list },
          { saved: file.worldHash, world: expected, problems: checked.problems },
        )
      : new EngineError(
          "save/inconsistent",
          count === 1 ? "one" : "many",
          { count, list },
          { problems: checked.problems },
        );
  }
  return {
    state: checked.state,
    maxJudged: Number.isInteger(maxJudged) ? maxJudged! : 20,
    edited,
    warnings: checked.changes,
    history: file.history,
    trusted: false,
  };
}

/** Written by this very engine (save and engine version): its state has the shape this engine writes. */
function isOwnSave(file: Partial<SaveFile>): boolean {
  const state = file.state as unknown;
  return (
    file.version === SAVE_VERSION &&
    file.engine?.engineVersion === ENGINE_VERSION &&
    file.engine?.semanticVersion === SEMANTIC_VERSION &&
    state !== null &&
    typeof state === "object" &&
    !Array.isArray(state) &&
    "summary" in state
  );
}

/** Fills what older save versions lack (version 1 had no running summary). */
function upgrade(state: unknown): unknown {
  if (state === null || typeof state !== "object" || Array.isArray(state) || "summary" in state) return state;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    out[key] = value;
    if (key === "history") out.summary = { text: "", upTo: -1 };
  }
  if (!("summary" in out)) out.summary = { text: "", upTo: -1 };
  return out;
}
