/**
 * Lexical relevance of an AI-judged condition's query to the text it will be
 * judged against (resolutions "Triggers": lexical similarity when no
 * embeddings are available). The measure is query coverage: the share of the
 * query's distinct content words (lower-cased letter/digit runs of 3+
 * characters, minus a few stop words, with a trailing "s" dropped) that occur
 * in the text. It lies in [0, 1]; a trigger's relevance is the best over its
 * AI-judged conditions, and ties keep map order.
 */

const STOP_WORDS = new Set(
  "the and for are but not you your with this that from have has had was were will would can could into onto over under then than them they their there here what when where which who whom why how all any some its our out about after before been being does did doing very just also only own same such too".split(
    " ",
  ),
);

export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    words.add(singular(word));
  }
  return words;
}

/**
 * A plural-tolerant form of a word: a trailing "s" is dropped from words of
 * four letters or more, but not "ss" ("ledges" -> "ledge", "glass" stays).
 */
export function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** Share of the query's content words found in the text's content words. */
export function coverage(query: ReadonlySet<string>, text: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  let found = 0;
  for (const word of query) if (text.has(word)) found++;
  return found / query.size;
}

/**
 * Cosine similarity, the measure when embeddings are available (here and for
 * lore); 0 for vectors of other lengths, empty or zero vectors, or non-numbers.
 */
export function cosine(a: unknown, b: unknown): number {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/** Sorts by score, highest first; equal scores keep their input (map) order. */
export function rankByScore<T>(items: readonly Ranked<T>[]): Ranked<T>[] {
  const ordered: Ordered<T>[] = [];
  for (let order = 0; order < items.length; order++) ordered.push({ entry: items[order]!, order });
  ordered.sort(byScoreThenOrder);
  const out: Ranked<T>[] = [];
  for (const { entry } of ordered) out.push(entry);
  return out;
}

interface Ordered<T> {
  entry: Ranked<T>;
  order: number;
}

/** The comparator, made once (a closure made per call is optimised again and again). */
function byScoreThenOrder(a: Ordered<unknown>, b: Ordered<unknown>): number {
  return b.entry.score - a.entry.score || a.order - b.order;
}
