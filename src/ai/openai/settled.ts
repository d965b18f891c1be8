import { SUMMARY_BATCH } from "../../engine/narration.ts";
import { own } from "../../engine/own.ts";
import type { NarrationRequest } from "../../engine/ports.ts";
import { RECENT_STORY } from "../../engine/scene.ts";
import type { World } from "../../world/schema/index.ts";
import { TEXT_CAPS } from "../prompts/budgets.ts";
import { standingGuidance } from "../prompts/narration.ts";
import type { LoreEntry } from "../prompts/types.ts";
import { traitHoldings } from "../prompts/world-text.ts";

/** Games whose settled parts are remembered; the oldest is forgotten first (a forgotten game only re-settles). */
const MAX_GAMES = 1_000;
/**
 * The turns a part that came lately is expected to stay after the earlier turns before the
 * summary moves the window (about half of the engine's SUMMARY_BATCH): settling it costs the
 * history once, keeping it after the history costs its length on every turn till then.
 */
const TURNS_LEFT = Math.max(1, Math.floor(SUMMARY_BATCH / 2));
/** The characters a listed line adds beyond its text (name, holder, bullet). */
const LINE_EXTRA = 40;

interface Settled {
  /** What the turns shown start from: the summary and the first turn's tick. */
  window: string;
  traits: ReadonlySet<string>;
  lore: readonly LoreEntry[];
  standing: readonly string[];
}

/** What a narration prompt's stable part lists (`NarrationPromptOptions.settledTraits`, `settledLore`). */
export interface SettledParts {
  settledTraits: ReadonlySet<string>;
  settledLore: readonly LoreEntry[];
  settledStanding: readonly string[];
}

/**
 * The party's traits and the lore that a turn's narration prompt lists in its
 * stable part, before the earlier turns (issue 39), remembered per game: the
 * traits held and the lore picked when the turns since the summary began, kept
 * until the summary changes (when the prefix changes anyway), a settled trait
 * is lost, or what came since weighs more than the history it would cost to
 * settle it (early in a window, when little history follows). A trait gained
 * or lore picked in between is listed after the earlier turns, so the history
 * stays in the prefix a server caches. Where a trait or a picked lore entry is
 * listed never decides whether it is: every held trait and every pick is, so a
 * restart or an undo only moves one.
 */
export class SettledMemory {
  private readonly games = new Map<string, Settled>();

  constructor(private readonly world: World) {}

  /**
   * The settled parts for `request` with this turn's `lore` picks (remembered), or undefined for
   * the opening. When it settles, `size` (the prompt's length with the given parts) decides
   * whether the lore is settled too: only when the prompt, grown by turns like the ones shown
   * to the most the window holds before the next summary (RECENT_STORY + SUMMARY_BATCH), stays
   * within `budget`. A settled block the budget trims later would change
   * the prefix on every turn, where lore after the earlier turns is trimmed first and costs none.
   */
  for(
    request: NarrationRequest,
    lore: readonly LoreEntry[],
    fits?: { budget: number; size: (parts: SettledParts) => number },
  ): SettledParts | undefined {
    if (request.opening) return undefined;
    const held = traitHoldings(request.scene.party);
    const turns = request.context?.turns ?? [];
    const window = `${Number(turns[0]?.tick ?? -1)}\u0000${request.summary}`;
    const key = String(request.game ?? "");
    const known = this.games.get(key);
    const standing = standingGuidance(this.world, request);
    if (
      known &&
      known.window === window &&
      [...known.traits].every((h) => held.includes(h)) &&
      known.standing.every((i) => standing.includes(i))
    ) {
      // Lore is picked anew every turn, so it is not weighed: settling it would settle again next turn.
      const lately =
        held.filter((h) => !known.traits.has(h)).reduce((n, h) => n + this.guidance(h), 0) +
        standing.filter((i) => !known.standing.includes(i)).reduce((n, i) => n + LINE_EXTRA + i.length, 0);
      const history = turnChars(turns);
      if (lately * TURNS_LEFT <= history) return parts(known);
    }
    let settled: Settled = { window, traits: new Set(held), lore: [...lore], standing };
    if (fits && lore.length > 0) {
      const turn = turns.length === 0 ? 0 : turnChars(turns) / turns.length;
      const more = Math.max(0, RECENT_STORY + SUMMARY_BATCH - turns.length);
      if (fits.size(parts(settled)) + more * turn > fits.budget) settled = { ...settled, lore: [] };
    }
    this.games.delete(key);
    this.games.set(key, settled);
    if (this.games.size > MAX_GAMES) this.games.delete(this.games.keys().next().value!);
    return parts(settled);
  }

  /** About the characters a trait holding's line takes. */
  private guidance(holding: string): number {
    const trait = own(this.world.traits, holding.slice(holding.indexOf("\u0000") + 1)) as
      | { traitNarrativeEffects?: unknown; quirk?: unknown; description?: unknown }
      | undefined;
    const text = [trait?.traitNarrativeEffects, trait?.quirk, trait?.description].find(
      (t) => typeof t === "string" && t.trim() !== "",
    );
    return LINE_EXTRA + Math.min(TEXT_CAPS.trait, typeof text === "string" ? text.length : 0);
  }
}

function parts(settled: Settled): SettledParts {
  return { settledTraits: settled.traits, settledLore: settled.lore, settledStanding: settled.standing };
}

/** The characters of the turns shown: their stories and actions. */
function turnChars(turns: readonly { story: string; actions: readonly { text: string }[] }[]): number {
  return turns.reduce((n, t) => n + t.story.length + t.actions.reduce((m, a) => m + a.text.length, 0), 0);
}
