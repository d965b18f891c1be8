import { contentWords } from "../../engine/relevance.ts";
import { fnv1a, stem } from "./text.ts";

/**
 * Embeddings by hashed bag of words: each content word of a text (relevance.ts
 * contentWords, then stem()) is hashed with FNV-1a into one of EMBED_DIMENSION
 * buckets, with a sign taken from another bit of the same hash (signed hashing
 * keeps collisions from adding up); a word seen n times weighs 1 + ln(n). The
 * vector is L2-normalised, so a dot product is the cosine. A text without
 * content words gets the zero vector (cosine 0 with everything).
 */

export const EMBED_DIMENSION = 256;
/** Only this much of each text is read. */
export const EMBED_MAX_CHARS = 20_000;

export function embedText(text: string): number[] {
  const counts = new Map<string, number>();
  for (const match of text.slice(0, EMBED_MAX_CHARS).matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const word of contentWords(match[0])) {
      const key = stem(word);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const vector = new Array<number>(EMBED_DIMENSION).fill(0);
  for (const [word, count] of counts) {
    const hash = fnv1a(word);
    const sign = (hash >>> 31) & 1 ? -1 : 1;
    const at = hash % EMBED_DIMENSION;
    vector[at] = (vector[at] ?? 0) + sign * (1 + Math.log(count));
  }
  let squares = 0;
  for (const x of vector) squares += x * x;
  const norm = Math.sqrt(squares);
  if (norm === 0) return vector;
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}
