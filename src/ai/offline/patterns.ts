import type { Token } from "./text.ts";

/**
 * A tiny phrase language for the intent rules, matched on folded tokens
 * (text.ts), never across a clause break:
 * - words separated by spaces must follow one another: "knock ~2 out";
 * - "a|b|c" is any of the alternatives; a trailing "*" matches a prefix
 *   ("attack*" matches "attack", "attacks", "attacking");
 * - "~N" skips up to N words ("knock ~2 out" matches "knock him out").
 *
 * A match is refused when its first word is negated (not, never, don't,
 * won't, can't, refuse, avoid, without, rather ... up to five words before
 * it in the same phrase) or used as a noun (right after "the", "a", "my" ...:
 * "talk to the guard" is not "guard").
 */

type Element = { gap: number } | { words: Set<string>; prefixes: string[] };

export interface Pattern {
  source: string;
  elements: Element[];
}

export function compile(source: string): Pattern {
  const elements: Element[] = source
    .trim()
    .split(/\s+/)
    .map((part) => {
      if (/^~\d+$/.test(part)) return { gap: Number(part.slice(1)) };
      const words = new Set<string>();
      const prefixes: string[] = [];
      for (const alt of part.split("|")) {
        if (alt.endsWith("*")) prefixes.push(alt.slice(0, -1));
        else words.add(alt);
      }
      return { words, prefixes };
    });
  return { source, elements };
}

function accepts(element: Element, word: string): boolean {
  if ("gap" in element) return false;
  return element.words.has(word) || element.prefixes.some((p) => word.startsWith(p));
}

/** Does the pattern match starting at token i, inside one clause? Returns the index after the match, or -1. */
function matchAt(pattern: Pattern, tokens: readonly Token[], i: number, clause: number, e = 0): number {
  if (e === pattern.elements.length) return i;
  const element = pattern.elements[e]!;
  if ("gap" in element) {
    for (let skip = 0; skip <= element.gap; skip++) {
      const at = i + skip;
      if (at > tokens.length || (skip > 0 && tokens[at - 1]!.clause !== clause)) break;
      const end = matchAt(pattern, tokens, at, clause, e + 1);
      if (end >= 0) return end;
    }
    return -1;
  }
  const token = tokens[i];
  if (!token || token.clause !== clause || !accepts(element, token.raw)) return -1;
  return matchAt(pattern, tokens, i + 1, clause, e + 1);
}

const NEGATIONS = new Set(
  "not dont doesnt didnt never wont cant cannot shouldnt wouldnt couldnt mustnt isnt arent no nor refuse refuses refused refusing avoid avoids avoiding without rather instead neither".split(
    " ",
  ),
);

const NOUN_MARKERS = new Set(
  "the a an this that these those my your his her its our their some any another each every no".split(" "),
);

/** Is token i negated: a negation word up to five words before it, in the same phrase. */
export function negated(tokens: readonly Token[], i: number): boolean {
  const phrase = tokens[i]?.phrase;
  for (let k = i - 1; k >= 0 && k >= i - 5; k--) {
    const t = tokens[k]!;
    if (t.phrase !== phrase) break;
    if (NEGATIONS.has(t.raw)) return true;
  }
  return false;
}

/** Is token i used as a noun: right after a determiner or possessive of the same phrase. */
export function asNoun(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  return before !== undefined && before.phrase === tokens[i]!.phrase && NOUN_MARKERS.has(before.raw);
}

export interface Found {
  /** The pattern that matched. */
  pattern: string;
  start: number;
  end: number;
}

/** The first match of any pattern (by position, then pattern order) that is neither negated nor a noun. */
export function findFirst(patterns: readonly Pattern[], tokens: readonly Token[]): Found | null {
  for (let i = 0; i < tokens.length; i++) {
    for (const pattern of patterns) {
      const end = matchAt(pattern, tokens, i, tokens[i]!.clause);
      if (end < 0) continue;
      if (negated(tokens, i) || asNoun(tokens, i)) continue;
      return { pattern: pattern.source, start: i, end };
    }
  }
  return null;
}
