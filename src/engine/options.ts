import type { World } from "../world/schema/index.ts";
import { didYouMean } from "../world/suggest.ts";
import type { PlayerSpec } from "./characters.ts";
import { DEFAULT_MAX_JUDGED } from "./env.ts";
import { EngineError, type EngineMessageId } from "./errors.ts";
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

export type RestoreOptions = Omit<SessionOptions, "storyStart" | "players" | "seed" | "sessionId"> & {
  /** The save is this program's own, read back from where only it writes (readSave's `trusted`). */
  trustedSave?: boolean;
};

export const DEFAULT_PLAYER = "Player";

function invalid(
  messageId: EngineMessageId<"options/invalid">,
  data: Record<string, string | number> = {},
): never {
  throw new EngineError("options/invalid", messageId, data);
}

/** Checks the options every session needs (AI ports, script runner, judge cap). */
export function checkPorts(options: RestoreOptions | undefined): {
  ai: AiPorts;
  scripts: ScriptRunner | undefined;
  maxJudged: number;
  validate: boolean;
} {
  if (options === null || typeof options !== "object") invalid("missing");
  const ai = options.ai as Partial<AiPorts> | undefined;
  for (const method of ["classify", "narrate", "judge"] as const) {
    if (typeof ai?.[method] !== "function") invalid("ai-method", { method });
  }
  const scripts = options.scripts;
  if (scripts !== undefined && typeof scripts?.beginPhase !== "function") {
    invalid("scripts");
  }
  const maxJudged = options.maxJudged ?? DEFAULT_MAX_JUDGED;
  if (!Number.isInteger(maxJudged) || maxJudged < 0)
    invalid("max-judged", { value: String(options.maxJudged) });
  if (options.validate !== undefined && typeof options.validate !== "boolean") invalid("validate");
  return { ai: ai as AiPorts, scripts, maxJudged, validate: options.validate ?? true };
}

export function checkSeed(seed: unknown): number {
  if (seed === undefined) return 0;
  if (typeof seed !== "number" || !Number.isFinite(seed)) invalid("seed", { value: String(seed) });
  return seed;
}

/** The story start to begin with (resolutions "Story starts": the named one, else `isDefault`, else the first). */
export function chooseStoryStart(world: World, wanted: unknown): string {
  const keys = Object.keys(world.storyStarts);
  if (keys.length === 0) throw new EngineError("options/no-story-start", "none");
  if (wanted === undefined) return keys.find((k) => world.storyStarts[k]!.isDefault === true) ?? keys[0]!;
  if (typeof wanted !== "string") invalid("story-start");
  if (Object.hasOwn(world.storyStarts, wanted)) return wanted;
  throw new EngineError(
    "options/unknown-story-start",
    "unknown",
    { storyStart: wanted, suggestion: didYouMean(wanted, keys), known: keys.map((k) => `"${k}"`).join(", ") },
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
  if (!Array.isArray(list) || list.length === 0) invalid("players");
  const names = new Map<string, string>();
  for (const npc of partyNpcs) names.set(npc.toLowerCase(), npc);
  const specs: PlayerSpec[] = list.map((entry, i) => {
    const where = `options.players[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      throw new EngineError("player/invalid", "shape", { where });
    }
    const spec = entry as Record<string, unknown>;
    let name: string;
    if (spec.premade !== undefined) {
      const premade = world.premadeCharacters.find((p) => p.name === spec.premade);
      if (!premade) {
        const known = world.premadeCharacters.map((p) => p.name);
        throw new EngineError(
          "player/unknown-premade",
          "unknown",
          {
            where,
            premade: `${JSON.stringify(spec.premade)}`,
            suggestion: typeof spec.premade === "string" ? didYouMean(spec.premade, known) : "",
            known: known.map((n) => `"${n}"`).join(", ") || "none",
          },
          { premade: spec.premade },
        );
      }
      name = premade.name;
    } else {
      name = checkCustom(index, spec, where);
    }
    const clash = names.get(name.toLowerCase());
    if (clash !== undefined) {
      throw new EngineError("player/duplicate-name", "taken", { where, name, clash }, { name });
    }
    names.set(name.toLowerCase(), name);
    return spec.premade !== undefined ? { premade: name } : (spec as PlayerSpec);
  });
  return specs;
}

function checkCustom(index: WorldIndex, spec: Record<string, unknown>, where: string): string {
  const world = index.world;
  if (typeof spec.name !== "string" || spec.name.trim() === "") {
    throw new EngineError("player/invalid", "no-name", { where });
  }
  const attributes = spec.attributes ?? {};
  if (attributes === null || typeof attributes !== "object" || Array.isArray(attributes)) {
    throw new EngineError("player/invalid", "attributes", { where });
  }
  for (const [key, value] of Object.entries(attributes)) {
    if (attributeName(index, key) === undefined) {
      const known = world.attributeSettings.attributeNames;
      throw new EngineError(
        "player/unknown-attribute",
        "unknown",
        { where, attribute: key, suggestion: didYouMean(key, known), known: known.join(", ") || "none" },
        { attribute: key },
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new EngineError("player/invalid", "attribute-value", { where, attribute: key });
    }
  }
  const traits = spec.traits ?? [];
  if (!Array.isArray(traits) || traits.some((t) => typeof t !== "string")) {
    throw new EngineError("player/invalid", "traits", { where });
  }
  const perCategory = new Map<string, number>();
  for (const trait of traits as string[]) {
    if (!Object.hasOwn(world.traits, trait)) {
      throw new EngineError(
        "player/unknown-trait",
        "unknown",
        { where, trait, suggestion: didYouMean(trait, Object.keys(world.traits)) },
        { trait },
      );
    }
    const categories = Object.values(world.traitCategories).filter((c) => c.traits.includes(trait));
    if (categories.length === 0) {
      throw new EngineError("player/trait-not-selectable", "no-category", { where, trait }, { trait });
    }
    for (const category of categories) {
      const count = (perCategory.get(category.name) ?? 0) + 1;
      perCategory.set(category.name, count);
      if (count > category.maxSelections) {
        throw new EngineError(
          "player/too-many-traits",
          "too-many",
          { where, max: category.maxSelections, category: category.name },
          { category: category.name },
        );
      }
    }
  }
  return spec.name.trim() === spec.name ? spec.name : invalid("name-spaces", { where });
}
