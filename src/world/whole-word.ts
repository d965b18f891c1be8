/**
 * Whole-word search for names that come from a world ("Slade", "The Gutted Eel"), without building a
 * regular expression from them: a name is world text of any length, and a pattern built from it can
 * exceed the engine's size limit ("Regular expression too large") or cost time with its length.
 */

const LETTER = /\p{L}/u;
const WORD_CHAR = /[A-Za-z0-9_]/;

export interface WholeWordOptions {
  /** Compare without case (the world's names in prose written in any case). */
  ignoreCase?: boolean;
  /** What may not touch the word on either side: letters (default) or JavaScript's `\w` characters. */
  boundary?: "letter" | "word";
}

/** Does `text` hold `word` with no letter (or word character) right before or after it? */
export function hasWholeWord(text: string, word: string, options: WholeWordOptions = {}): boolean {
  if (word === "" || word.length > text.length) return false;
  const haystack = options.ignoreCase ? text.toLowerCase() : text;
  const needle = options.ignoreCase ? word.toLowerCase() : word;
  const inside = options.boundary === "word" ? WORD_CHAR : LETTER;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = at > 0 ? String.fromCodePoint(haystack.codePointAt(at - 1) ?? 0) : "";
    const after = haystack.slice(at + needle.length, at + needle.length + 2);
    if (
      !(before !== "" && inside.test(before)) &&
      !(after !== "" && inside.test(String.fromCodePoint(after.codePointAt(0)!)))
    )
      return true;
  }
  return false;
}
