import { cutEnd } from "./sections.ts";

/**
 * The context plan of the narration prompts (issue 39), in the manner of AI
 * Dungeon's (required parts capped at a share of the context, the rest
 * history first) and SillyTavern's prompt manager. Each share is a fraction
 * of the prompt's character budget:
 *
 *  - caps: the world's instructions (system message) and the world's data
 *    (background, style, game mode, resources, death) are cut ONCE per game
 *    to their share, so they are the same bytes every turn (a cacheable
 *    prefix) and can never crowd out the game;
 *  - floors: the recent story with its actions, the scene, the party's
 *    character sheets and (in the opening) the story start are trimmed below
 *    their share only after everything else trimmable went and the protected
 *    items were cut (sections.ts `fit`).
 */
export const CONTEXT_PLAN = Object.freeze({
  /** Cap: the world's instructions for the narrator. */
  instructions: 0.25,
  /** Cap: background, style, game mode, resources and death together. */
  world: 0.15,
  /** Floor: the newest turns (actions and story). */
  recentStory: 0.25,
  /** Floor: the location's description. */
  location: 0.04,
  /** Floor: the area's description. */
  area: 0.03,
  /** Floor: the characters present. */
  characters: 0.04,
  /** Floor: the party's character sheets. */
  sheets: 0.1,
  /** Floor (opening): the story start, the author's opening instructions. */
  storyStart: 0.25,
});

/** The characters a share of `budget` gives. */
export function share(budget: number, part: keyof typeof CONTEXT_PLAN): number {
  return Math.floor(budget * CONTEXT_PLAN[part]);
}

/**
 * `text` within `max` characters, cut at paragraph ends (issue 39): whole
 * paragraphs in order, a paragraph that does not fit skipped so a later one
 * that does still comes (the author's voice is often a short paragraph near
 * the end). A paragraph longer than `max` on its own is taken line by line,
 * then sentence by sentence. The same text and `max` always give the same
 * bytes, so the prompt's prefix is stable for the whole game.
 */
export function cutAtParagraphs(text: string, max: number): { text: string; left: number } {
  if (text.length <= max) return { text, left: 0 };
  const kept: string[] = [];
  let used = 0;
  let left = 0;
  const take = (unit: string, separator: number) => {
    if (used + separator + unit.length > max) return false;
    kept.push(unit);
    used += separator + unit.length;
    return true;
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    const p = paragraph.trim();
    if (p === "") continue;
    const sep = kept.length === 0 ? 0 : 2;
    if (take(p, sep)) continue;
    if (p.length > max - used - sep && kept.length === 0) {
      // A first paragraph over the whole cap: its first lines or sentences.
      const part = firstUnits(p, max);
      if (part !== "") {
        kept.push(part);
        used += part.length;
      }
    }
    left++;
  }
  return { text: kept.join("\n\n"), left };
}

function firstUnits(paragraph: string, max: number): string {
  const units = paragraph.split(/(?<=[.!?:])\s+|\n/);
  let out = "";
  for (const unit of units) {
    const next = out === "" ? unit : `${out} ${unit}`;
    if (next.length > max) break;
    out = next;
  }
  return out !== "" ? out : cutEnd(paragraph, max);
}
