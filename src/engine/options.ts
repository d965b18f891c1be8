import type { World } from "../world/schema/index.ts";
import { didYouMean } from "../world/suggest.ts";
import type { PlayerSpec } from "./characters.ts";
import { DEFAULT_MAX_JUDGED } from "./env.ts";
import { EngineError } from "./errors.ts";
import type { AiPorts, ScriptRunner } from "./ports.ts";
import { attributeName, type WorldIndex } from "./world-index.ts";

export interface SessionOptions {
  /** The story start's key; by default the one with `isDefault`, else the first. */
  storyStart?: string;
  /** The player characters; by default one made-up player named "Player". */
  players?: PlayerSpec[];
  /** All randomness derives from it (default 0). */
  seed?: number;
  ai: AiPorts;
  /** Runs trigger scripts; without one, scripts are skipped (logged) and typed effects apply. */
  scripts?: ScriptRunner;
  /** At most this many AI-judged candidate triggers per phase (default 20). */
  maxJudged?: number;
  /** Check the world (load steps, shape, rules) before playing; default true. Pass false only for a world that validateWorld accepted. */
  validate?: boolean;
  /** The session identity given to the script runner; derived from the seed by default. */
  sessionId?: string;
}

export type RestoreOptions = Omit<SessionOptions, "storyStart" | "players" | "seed" | "sessionId">;

export const DEFAULT_PLAYER = "Player";

function invalid(message: string): never {
  throw new EngineError("options/invalid", message);
}

/** Checks the options every session needs (AI ports, script runner, judge cap). */
export function checkPorts(options: RestoreOptions | undefined): {
  ai: AiPorts;
  scripts: ScriptRunner | undefined;
  maxJudged: number;
  validate: boolean;
} {
  if (options === null || typeof options !== "object")
    invalid("Pass an options object with at least `ai` (the AI ports).");
  const ai = options.ai as Partial<AiPorts> | undefined;
  for (const method of ["classify", "narrate", "judge"] as const) {
    if (typeof ai?.[method] !== "function")
      invalid(`options.ai must implement ${method}() (see AiPorts in src/engine/ports.ts).`);
  }
  const scripts = options.scripts;
  if (scripts !== undefined && typeof scripts?.beginPhase !== "function") {
    invalid("options.scripts must be a ScriptRunner (beginPhase/close), or be left out to skip scripts.");
  }
  const maxJudged = options.maxJudged ?? DEFAULT_MAX_JUDGED;
  if (!Number.isInteger(maxJudged) || maxJudged < 0)
    invalid(`options.maxJudged must be a whole number >= 0, not ${String(options.maxJudged)}.`);
  if (options.validate !== undefined && typeof options.validate !== "boolean")
    invalid("options.validate must be true or false.");
  return { ai: ai as AiPorts, scripts, maxJudged, validate: options.validate ?? true };
}

export function checkSeed(seed: unknown): number {
  if (seed === undefined) return 0;
  if (typeof seed !== "number" || !Number.isFinite(seed))
    invalid(`options.seed must be a finite number, not ${String(seed)}.`);
  return seed;
}

/** The story start to begin with (resolutions "Story starts": the named one, else `isDefault`, else the first). */
export function chooseStoryStart(world: World, wanted: unknown): string {
  const keys = Object.keys(world.storyStarts);
  if (keys.length === 0)
    throw new EngineError(
      "options/no-story-start",
      "The world defines no story start; add one to storyStarts.",
    );
  if (wanted === undefined) return keys.find((k) => world.storyStarts[k]!.isDefault === true) ?? keys[0]!;
  if (typeof wanted !== "string") invalid("options.storyStart must be the key of a story start.");
  if (Object.hasOwn(world.storyStarts, wanted)) return wanted;
  throw new EngineError(
    "options/unknown-story-start",
    `No story start "${wanted}".${didYouMean(wanted, keys)} The world has: ${keys.map((k) => `"${k}"`).join(", ")}.`,
    { storyStart: wanted },
  );
}

/**
 * Checks the player characters: premades by name, or made-up ones with known
 * attributes and selectable traits within each category's maxSelections
 * (spec 2.3: the only enforced creation constraint). Names are unique across
 * the party, NPCs included, ignoring case.
 */
export function checkPlayers(
  index: WorldIndex,
  players: unknown,
  partyNpcs: readonly string[],
): PlayerSpec[] {
  const world = index.world;
  const list = players === undefined ? [{ name: DEFAULT_PLAYER }] : players;
  if (!Array.isArray(list) || list.length === 0)
    invalid("options.players must be a non-empty array of players.");
  const names = new Map<string, string>();
  for (const npc of partyNpcs) names.set(npc.toLowerCase(), npc);
  const specs: PlayerSpec[] = list.map((entry, i) => {
    const where = `options.players[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      throw new EngineError(
        "player/invalid",
        `${where} must be {premade: name} or {name, attributes?, traits?}.`,
      );
    }
    const spec = entry as Record<string, unknown>;
    let name: string;
    if (spec.premade !== undefined) {
      const premade = world.premadeCharacters.find((p) => p.name === spec.premade);
      if (!premade) {
        const known = world.premadeCharacters.map((p) => p.name);
        throw new EngineError(
          "player/unknown-premade",
          `${where}: no premade character ${JSON.stringify(spec.premade)}.${typeof spec.premade === "string" ? didYouMean(spec.premade, known) : ""} Premades: ${known.map((n) => `"${n}"`).join(", ") || "none"}.`,
          { premade: spec.premade },
        );
      }
      name = premade.name;
    } else {
      name = checkCustom(index, spec, where);
    }
    const clash = names.get(name.toLowerCase());
    if (clash !== undefined) {
      throw new EngineError(
        "player/duplicate-name",
        `${where}: the name "${name}" is already taken by "${clash}" in the party. Give each party member its own name.`,
        { name },
      );
    }
    names.set(name.toLowerCase(), name);
    return spec.premade !== undefined ? { premade: name } : (spec as PlayerSpec);
  });
  return specs;
}

function checkCustom(index: WorldIndex, spec: Record<string, unknown>, where: string): string {
  const world = index.world;
  if (typeof spec.name !== "string" || spec.name.trim() === "") {
    throw new EngineError(
      "player/invalid",
      `${where}: a made-up player needs a non-empty "name" (or use {premade: name}).`,
    );
  }
  const attributes = spec.attributes ?? {};
  if (attributes === null || typeof attributes !== "object" || Array.isArray(attributes)) {
    throw new EngineError("player/invalid", `${where}.attributes must map attribute names to numbers.`);
  }
  for (const [key, value] of Object.entries(attributes)) {
    if (attributeName(index, key) === undefined) {
      const known = world.attributeSettings.attributeNames;
      throw new EngineError(
        "player/unknown-attribute",
        `${where}: no attribute "${key}".${didYouMean(key, known)} Attributes: ${known.join(", ") || "none"}.`,
        { attribute: key },
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new EngineError("player/invalid", `${where}.attributes.${key} must be a finite number.`);
    }
  }
  const traits = spec.traits ?? [];
  if (!Array.isArray(traits) || traits.some((t) => typeof t !== "string")) {
    throw new EngineError("player/invalid", `${where}.traits must be an array of trait names.`);
  }
  const perCategory = new Map<string, number>();
  for (const trait of traits as string[]) {
    if (!Object.hasOwn(world.traits, trait)) {
      throw new EngineError(
        "player/unknown-trait",
        `${where}: no trait "${trait}".${didYouMean(trait, Object.keys(world.traits))}`,
        { trait },
      );
    }
    const categories = Object.values(world.traitCategories).filter((c) => c.traits.includes(trait));
    if (categories.length === 0) {
      throw new EngineError(
        "player/trait-not-selectable",
        `${where}: trait "${trait}" is in no trait category, so it cannot be chosen at creation (a player-traits effect can still grant it).`,
        { trait },
      );
    }
    for (const category of categories) {
      const count = (perCategory.get(category.name) ?? 0) + 1;
      perCategory.set(category.name, count);
      if (count > category.maxSelections) {
        throw new EngineError(
          "player/too-many-traits",
          `${where}: at most ${category.maxSelections} trait(s) of category "${category.name}" may be chosen.`,
          { category: category.name },
        );
      }
    }
  }
  return spec.name.trim() === spec.name
    ? spec.name
    : invalid(`${where}.name must not start or end with spaces.`);
}
