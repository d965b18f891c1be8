/**
 * Repeated actions (issue 14: `attack the Salt Widow` four turns in a row
 * printed the same paragraph four times). The offline narrator keeps no
 * memory between calls (the same request always gives the same story), so it
 * varies by what the request carries: the recent story, and the tick.
 *
 * - An action already told in a recent turn is told again in a shorter,
 *   varied form: the variant is chosen by the tick modulo 5, so any five
 *   consecutive turns get five different lines.
 * - On a turn where the party stays, the place gets at most one sentence:
 *   its sentences (and empty slots up to five) in an order seeded by the
 *   game's session, one slot per tick, so none is told again before all the
 *   others were, and on some turns none is.
 * - An event's beat that tells again what this turn's instructions or a
 *   recent story told (the example world's storm arriving in the trigger's
 *   instruction and in the event's first beat) is left out: the moment is
 *   told once.
 */

import { fnv1a, sentences, stemmedWords } from "./text.ts";

const AGAIN_NOTHING = [
  "Again you {core}; nothing changes.",
  "You {core} once more, to no effect.",
  "Once more you {core}, and nothing comes of it.",
  "You {core} again. It makes no difference.",
  "Still you {core}; still nothing.",
];
const AGAIN = [
  "Again you {core}.",
  "You {core} once more.",
  "Once more you {core}.",
  "You {core} again.",
  "Still you {core}.",
];

/** The act of an echo: "You attack the Salt Widow; it makes no difference." -> "attack the Salt Widow". */
export function coreOf(line: string): string {
  const m = /^You (?:try to )?(.+?)(?:[;,] (?:but )?(?:nothing|it makes|still).*)?[.!]?$/.exec(line.trim());
  return m ? m[1]!.trim() : "";
}

/** Was this act told in one of the recent stories' first paragraphs? */
export function toldRecently(core: string, recentStory: readonly string[]): boolean {
  if (core.length < 6) return false;
  const needle = core.toLowerCase();
  return recentStory.some((story) => (story.split("\n\n")[0] ?? "").toLowerCase().includes(needle));
}

/** The shorter, varied line for an act told again. */
export function againLine(core: string, happened: boolean, tick: number): string {
  const list = happened ? AGAIN : AGAIN_NOTHING;
  // "Again you say: “who is here?”." had two stops: a quotation that ends its own sentence takes none.
  return list[((tick % 5) + 5) % 5]!.replace("{core}", core).replace(/([.!?]”)\.$/, "$1");
}

/**
 * The place's sentence for a turn where the party stays. The place's sentences and some empty slots
 * (a pool of fewer than five gets empty ones up to five) are dealt in an order drawn from `order`
 * (the game's session id and the place: seeded, so a replay tells the same), and the tick picks the
 * slot: over any run of consecutive turns at the place, no sentence comes again before every other
 * one has been told. One told in the recent story is left out.
 */
export function stayingSentence(
  pool: readonly string[],
  tick: number,
  recentStory: readonly string[],
  order: string,
): string {
  const period = Math.max(pool.length, 5);
  const slot = dealt(period, order)[((tick % period) + period) % period]!;
  const sentence = pool[slot];
  if (sentence === undefined) return "";
  return recentStory.some((story) => story.includes(sentence)) ? "" : sentence;
}

/** 0 to count - 1 in an order drawn from `seed` (Fisher-Yates on a generator seeded by its digest). */
export function dealt(count: number, seed: string): number[] {
  const out = Array.from({ length: count }, (_, i) => i);
  let state = fnv1a(seed) || 1;
  const next = () => {
    // xorshift32: small, and the same on every platform.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A paragraph of this turn already printed, whole, in a recent turn (beyond short lines such as "X is here."). */
export function repeatsRecent(paragraph: string, recentStory: readonly string[]): boolean {
  if (paragraph.length < 40) return false;
  return recentStory.some((story) => story.split("\n\n").includes(paragraph));
}

/**
 * Does `sentence` tell again what a sentence of `texts` told? It does when they share at least 4
 * stemmed content words making 30% of its own ("The gale arrives all at once: rain driven
 * sideways ..." after "The storm has arrived at the tower: rain driving sideways ..."), or at
 * least 3 making 60% ("Below on the reefs, wreckers' lanterns swing ..." after "... lanterns
 * swinging on the reefs below ...").
 */
export function retells(sentence: string, texts: readonly string[]): boolean {
  const words = stemmedWords(sentence);
  if (words.size < 3) return false;
  for (const text of texts)
    for (const other of sentences(text)) {
      const theirs = stemmedWords(other);
      let shared = 0;
      for (const word of words) if (theirs.has(word)) shared++;
      const part = shared / words.size;
      if ((shared >= 4 && part >= 0.3) || (shared >= 3 && part >= 0.6)) return true;
    }
  return false;
}
