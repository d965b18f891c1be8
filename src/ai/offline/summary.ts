import { statesChange } from "./stale.ts";
import { clip, sentences } from "./text.ts";

/**
 * The running summary, extractive: the first sentence of each story entry to
 * fold in (cut to SENTENCE_LIMIT characters), appended to the sentences of the
 * old summary; while the whole is longer than SUMMARY_LIMIT characters the
 * oldest sentences are dropped. The offline narration opens each turn with
 * what the player did ("You walk to the Gutted Eel."), so first sentences make
 * a readable log.
 */

export const SUMMARY_LIMIT = 1500;
export const SENTENCE_LIMIT = 200;

export function foldSummary(old: string, entries: readonly { text: string }[]): string {
  const pieces = sentences(old).map((s) => clip(s, SENTENCE_LIMIT));
  for (const entry of entries) {
    const all = sentences(entry.text);
    const first = all[0];
    if (first) pieces.push(clip(first, SENTENCE_LIMIT));
    // A thing whose state changed ("The lamp ... is burning") is kept too: room descriptions are checked against it (stale.ts).
    const change = all.slice(1).find(statesChange);
    if (change) pieces.push(clip(change, SENTENCE_LIMIT));
  }
  const kept = pieces.filter((s, i) => s !== "" && s !== pieces[i - 1]);
  let length = kept.reduce((n, s) => n + s.length + 1, -1);
  while (kept.length > 1 && length > SUMMARY_LIMIT) length -= kept.shift()!.length + 1;
  return kept.join(" ").slice(0, SUMMARY_LIMIT);
}
