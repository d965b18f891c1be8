/**
 * Case-insensitive matching without the `i` flag, for large expressions
 * written in lower case that run on text once per process (lint's wording
 * rules). V8 compiles an expression at its first run and again, to native
 * code, at its second; with `i` each compile works out the case variants of
 * every letter (ICU's case closure), which made most of lint/narrator-directive's
 * cost on an at-cap world. A copy of the expression without `i` (caseless),
 * run on the text folded by foldCase, gives the same answer:
 *
 * Without the `u` flag, `i` matches a character to an ASCII letter of the
 * pattern when both upper-case to the same letter, never a character beyond
 * ASCII to one within it. toLowerCase agrees with that, keeps every string's
 * length (so offsets in the folded text are offsets in the text) and keeps
 * `\s`, `\w` and `\b`, for every UTF-16 unit but two: the dotted capital I
 * (U+0130, two units in lower case) and the Kelvin sign (U+212A, "k" in lower
 * case). foldCase turns both into the dotless i (U+0131), which, like them,
 * matches no ASCII letter and is no word character. A test checks this over
 * every UTF-16 unit (case-fold.test.ts).
 */

const SPECIAL = /[\u0130\u212a]/g;

/** The text in lower case, with the same length and, for caseless patterns, the same matches as with `i`. */
export function foldCase(text: string): string {
  const plain = text.includes("\u0130") || text.includes("\u212a") ? text.replace(SPECIAL, "\u0131") : text;
  return plain.toLowerCase();
}

/**
 * The expression without its `i` flag, for text folded by foldCase. Its
 * source must be lower case (upper-case escapes such as `\S` aside) and
 * without the `u` flag, whose case folding differs: checked here, once.
 */
export function caseless(pattern: RegExp): RegExp {
  if (!pattern.ignoreCase || pattern.unicode || pattern.flags.includes("v"))
    throw new Error(`caseless: ${pattern} must have the i flag and not u or v`);
  const source = pattern.source;
  for (let i = 0; i < source.length; i++) {
    const ch = source.charCodeAt(i);
    // An escape (\S, \W, \\) is skipped whole: only a literal letter must be lower case.
    if (ch === 92) i++;
    else if (ch >= 65 && ch <= 90) throw new Error(`caseless: ${pattern} has an upper-case letter`);
  }
  return new RegExp(pattern.source, pattern.flags.replace("i", ""));
}
