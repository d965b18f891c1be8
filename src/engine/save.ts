import { formatPath } from "../world/diagnostic.ts";
import type { World } from "../world/schema/index.ts";
import { EngineError } from "./errors.ts";
import { hashText } from "./hash.ts";
import { StateSchema } from "./save-schema.ts";
import { ENGINE_VERSION, SEMANTIC_VERSION } from "./scripts.ts";
import type { SessionState } from "./state.ts";

/**
 * The save format (ink's StoryState: a version and the oldest version that
 * can read it). A save is one JSON object holding the whole SessionState, the
 * world's hash and the session settings; the world itself is not in it.
 */
export const SAVE_FORMAT = "taleforge-save";
/** The version this engine writes. Bump it when the state changes shape. Version 2 added `summary`. */
export const SAVE_VERSION = 2;
/** The oldest engine save version that can read what this engine writes. */
export const MIN_READABLE_VERSION = 1;

export interface SaveFile {
  format: typeof SAVE_FORMAT;
  version: number;
  minReadableVersion: number;
  engine: { engineVersion: number; semanticVersion: string };
  worldHash: string;
  settings: { maxJudged: number };
  state: SessionState;
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

export function writeSave(world: World, state: SessionState, maxJudged: number): string {
  const file: SaveFile = {
    format: SAVE_FORMAT,
    version: SAVE_VERSION,
    minReadableVersion: MIN_READABLE_VERSION,
    engine: { engineVersion: ENGINE_VERSION, semanticVersion: SEMANTIC_VERSION },
    worldHash: worldHash(world),
    settings: { maxJudged },
    state,
  };
  return JSON.stringify(file);
}

/** Reads a save (its JSON text or the parsed object) for a world; throws a coded error when it cannot be resumed. */
export function readSave(world: World, saved: unknown): { state: SessionState; maxJudged: number } {
  let value: unknown = saved;
  if (typeof saved === "string") {
    try {
      value = JSON.parse(saved);
    } catch (error) {
      throw new EngineError(
        "save/malformed",
        `The save is not valid JSON (${(error as Error).message}): it was cut short or edited, or is not a save.`,
      );
    }
  }
  const file = value as Partial<SaveFile> | null;
  if (file === null || typeof file !== "object" || file.format !== SAVE_FORMAT) {
    throw new EngineError(
      "save/malformed",
      `This is not a Taleforge save: it lacks "format": "${SAVE_FORMAT}".`,
    );
  }
  if (!Number.isInteger(file.version) || !Number.isInteger(file.minReadableVersion)) {
    throw new EngineError(
      "save/malformed",
      "The save has no valid version numbers (version, minReadableVersion).",
    );
  }
  if (file.minReadableVersion! > SAVE_VERSION) {
    throw new EngineError(
      "save/future-version",
      `The save needs save format ${file.minReadableVersion} or later (written as version ${file.version}); this engine reads version ${SAVE_VERSION}. Update Taleforge to resume it.`,
      { version: file.version, minReadableVersion: file.minReadableVersion },
    );
  }
  const expected = worldHash(world);
  if (file.worldHash !== expected) {
    throw new EngineError(
      "save/world-mismatch",
      `The save belongs to another world, or to another version of this one (world hash ${String(file.worldHash)}, this world ${expected}). Resume it with the exact world file it was played with.`,
      { saved: file.worldHash, world: expected },
    );
  }
  let state: unknown;
  let parsed: ReturnType<typeof StateSchema.safeParse>;
  try {
    state = upgrade(file.state);
    parsed = StateSchema.safeParse(state);
  } catch (error) {
    throw new EngineError("save/malformed", `The saved state cannot be read: ${(error as Error).message}.`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineError(
      "save/malformed",
      `The saved state is damaged at ${formatPath(["state", ...(issue.path as (string | number)[])])}: ${issue.message}.`,
    );
  }
  const maxJudged = file.settings?.maxJudged;
  // The original object, not zod's copy: key order is part of a byte-identical resume.
  return {
    state: structuredClone(state as SessionState),
    maxJudged: Number.isInteger(maxJudged) ? maxJudged! : 20,
  };
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
