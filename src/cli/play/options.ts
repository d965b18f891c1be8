import type { PlayerSpec } from "../../engine/index.ts";
import type { World } from "../../world/schema/index.ts";
import { didYouMean } from "../../world/suggest.ts";

/** The play command's options as commander hands them over (strings, string lists, booleans). */
export interface PlayFlags {
  start?: string;
  premade?: string[];
  player?: string[];
  mode?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  embeddingModel?: string;
  timeout?: string;
  contextTokens?: string;
  config?: string;
  seed?: string;
  /** A file, or false for --no-save (no save at all, not even the default one at a terminal). */
  save?: string | false;
  load?: string;
  record?: string;
  replay?: string;
  trace?: boolean;
  /** Print the exact last request of each kind sent to the model after every turn. */
  showPrompt?: boolean;
  /** Refuse a world with any error: no repair, no playing anyway. */
  strict?: boolean;
}

/** The seed when none is given: fixed, so that a piped game is reproducible. */
export const DEFAULT_SEED = 1;

export class UsageError extends Error {}

/** A whole number (negative allowed) as typed; a usage error otherwise. */
export function parseSeed(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SEED;
  if (!/^-?\d{1,15}$/.test(value.trim()))
    throw new UsageError(`--seed takes a whole number, not "${value}".`);
  return Number(value.trim());
}

/**
 * The players asked for on the command line: premades first, then made-up
 * players written `Name` or `Name:Trait,Trait`. The engine checks the names
 * and traits against the world when the game starts.
 */
export function parsePlayers(flags: Pick<PlayFlags, "premade" | "player">): PlayerSpec[] | undefined {
  const specs: PlayerSpec[] = [];
  for (const name of flags.premade ?? []) specs.push({ premade: name.trim() });
  for (const text of flags.player ?? []) {
    const colon = text.indexOf(":");
    const name = (colon < 0 ? text : text.slice(0, colon)).trim();
    if (name === "")
      throw new UsageError(`--player needs a name, as in --player "Aria:Noble", not "${text}".`);
    const traits =
      colon < 0
        ? []
        : text
            .slice(colon + 1)
            .split(",")
            .map((t) => t.trim())
            .filter((t) => t !== "");
    specs.push({ name, traits });
  }
  return specs.length > 0 ? specs : undefined;
}

/** The game mode: the one asked for (did-you-mean on a typo), else the world's first, else none. */
export function chooseGameMode(world: World, wanted: string | undefined): string | null {
  const modes = Object.keys(world.gameModes ?? {});
  if (wanted === undefined) return modes[0] ?? null;
  if (modes.includes(wanted)) return wanted;
  const folded = modes.filter((m) => m.toLowerCase() === wanted.trim().toLowerCase());
  if (folded.length === 1) return folded[0]!;
  throw new UsageError(
    modes.length === 0
      ? `this world has no game modes, so --mode "${wanted}" cannot be used.`
      : `no game mode "${wanted}".${didYouMean(wanted, modes)} Modes: ${modes.map((m) => `"${m}"`).join(", ")}.`,
  );
}
