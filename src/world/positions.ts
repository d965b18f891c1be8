import type { JsonPath } from "./diagnostic.ts";

/**
 * Every `{` and `[` of a JSON text with its closing bracket: the offsets of
 * the opening brackets in text order, and at the same place the offsets of
 * their closing ones. A nesting scan that visits every bracket anyway
 * (findExcessiveNesting with `counts`) records them as it goes; a text without
 * them is scanned by `pairBrackets` when its first position is asked for. The
 * loader no longer scans a text JSON.parse accepts (src/world/load.ts), so a
 * valid world pays for no scan, and one with diagnostics pays for this one.
 */
export interface BracketPairs {
  opens: number[];
  closes: number[];
}

/**
 * From where the last match ended, everything up to the next bracket outside
 * a string, that bracket included: characters that are neither a quote nor a
 * bracket, and whole strings (escapes included). Sticky, so that a string that
 * never ends stops the scan instead of being searched past.
 */
const NEXT_BRACKET = /[^"[\]{}]*(?:"[^"\\]*(?:\\[\s\S][^"\\]*)*"[^"[\]{}]*)*[[\]{}]/y;

/**
 * The bracket pairs of a text, by one pass. A regular expression (native
 * code) jumps over the text between two brackets, strings included, so the
 * loop runs once per bracket (about 24,000 at the caps), not once per
 * character or string: the scan runs once per process, mostly before the JIT
 * compiles it, where each turn of a loop is expensive (a cold `check` with 150
 * warnings spent about 20 ms of CPU in the nesting scan this replaces, against
 * 6 ms here; warm, the two are alike). Strings end as `stringEnd` says, and a
 * string that never ends ends the scan, as there.
 */
export function pairBrackets(text: string): BracketPairs {
  const opens: number[] = [];
  const closes: number[] = [];
  /** Ordinals of the brackets still open, innermost last. */
  const stack: number[] = [];
  const next = new RegExp(NEXT_BRACKET);
  try {
    while (next.test(text)) {
      const i = next.lastIndex - 1;
      const ch = text.charCodeAt(i);
      if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
        stack.push(opens.length);
        opens.push(i);
        closes.push(-1);
      } else {
        const n = stack.pop();
        if (n !== undefined) closes[n] = i;
      }
    }
  } catch {
    // The expression's backtracking stack can overflow on a stretch of some
    // hundred thousand strings between two brackets: the loop below does the same without it.
    return pairBracketsByCharacter(text);
  }
  return { opens, closes };
}

/** pairBrackets by a loop over the characters (strings jumped over with indexOf). */
export function pairBracketsByCharacter(text: string): BracketPairs {
  const opens: number[] = [];
  const closes: number[] = [];
  const stack: number[] = [];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) i = stringEnd(text, i);
    else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      stack.push(opens.length);
      opens.push(i);
      closes.push(-1);
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) {
      const n = stack.pop();
      if (n !== undefined) closes[n] = i;
    }
  }
  return { opens, closes };
}

/**
 * Where the values of a valid JSON text start, found lazily: the brackets
 * are paired (by a nesting scan that recorded them, or here by one flat pass), then a path is
 * followed from the root, listing the members of only the objects and arrays
 * on that path (each listed once, then kept). Nothing recurses, so no nesting
 * depth can overflow the stack, and a valid world that needs no position
 * never pays for any of it.
 */
export class PositionIndex {
  readonly #text: string;
  readonly #brackets: BracketPairs;
  /** Offset of an object -> its keys (the first of duplicated keys, as editors show them). */
  readonly #members = new Map<number, Map<string, Member>>();
  /** Offset of an array -> the offsets of its elements. */
  readonly #elements = new Map<number, number[]>();
  readonly #root: number;

  /** `brackets`: the pairs of this very text, when a scan already recorded them. */
  constructor(text: string, brackets?: BracketPairs) {
    this.#text = text;
    this.#brackets = brackets ?? pairBrackets(text);
    this.#root = skipSpace(text, 0);
  }

  /**
   * The node at the end of the path: the offset of its value, of its key
   * when `atKey` is set and it is an object's member, and the end of the
   * value (exclusive). Undefined when some step of the path does not exist.
   */
  find(path: JsonPath, atKey = false): { offset: number; end: number } | undefined {
    if (this.#root >= this.#text.length) return undefined;
    let offset = this.#root;
    let keyOffset: number | undefined;
    for (const segment of path) {
      const ch = this.#text.charCodeAt(offset);
      if (typeof segment === "string") {
        if (ch !== OPEN_BRACE) return undefined;
        const member = this.#membersOf(offset).get(segment);
        if (!member) return undefined;
        offset = member.value;
        keyOffset = member.key;
      } else {
        if (ch !== OPEN_BRACKET) return undefined;
        const element = this.#elementsOf(offset)[segment];
        if (element === undefined) return undefined;
        offset = element;
        keyOffset = undefined;
      }
    }
    const end = this.#valueEnd(offset);
    return { offset: atKey && keyOffset !== undefined ? keyOffset : offset, end };
  }

  #membersOf(offset: number): Map<string, Member> {
    let members = this.#members.get(offset);
    if (members) return members;
    members = new Map();
    const text = this.#text;
    let i = skipSpace(text, offset + 1);
    while (text.charCodeAt(i) === QUOTE) {
      const keyEnd = stringEnd(text, i);
      const raw = text.slice(i + 1, keyEnd);
      const key = raw.includes("\\") ? (JSON.parse(text.slice(i, keyEnd + 1)) as string) : raw;
      const value = skipSpace(text, skipSpace(text, keyEnd + 1) + 1);
      if (!members.has(key)) members.set(key, { key: i, value });
      i = skipSpace(text, this.#valueEnd(value));
      if (text.charCodeAt(i) !== COMMA) break;
      i = skipSpace(text, i + 1);
    }
    this.#members.set(offset, members);
    return members;
  }

  #elementsOf(offset: number): number[] {
    let elements = this.#elements.get(offset);
    if (elements) return elements;
    elements = [];
    const text = this.#text;
    let i = skipSpace(text, offset + 1);
    if (text.charCodeAt(i) !== CLOSE_BRACKET) {
      while (i < text.length) {
        elements.push(i);
        i = skipSpace(text, this.#valueEnd(i));
        if (text.charCodeAt(i) !== COMMA) break;
        i = skipSpace(text, i + 1);
      }
    }
    this.#elements.set(offset, elements);
    return elements;
  }

  /** The offset just after the value that starts at `offset`. */
  #valueEnd(offset: number): number {
    const text = this.#text;
    const ch = text.charCodeAt(offset);
    if (ch === QUOTE) return stringEnd(text, offset) + 1;
    if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      const close = closeOf(this.#brackets, offset);
      return (close < 0 ? text.length - 1 : close) + 1;
    }
    let i = offset;
    while (i < text.length && !ENDS_SCALAR.has(text.charCodeAt(i))) i++;
    return i;
  }
}

/** The closing bracket of the one at `offset` (binary search: the openings are in text order), or -1. */
function closeOf(brackets: BracketPairs, offset: number): number {
  const { opens, closes } = brackets;
  let low = 0;
  let high = opens.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = opens[mid] as number;
    if (at === offset) return closes[mid] as number;
    if (at < offset) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

interface Member {
  key: number;
  value: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** What ends a number, true, false or null: a separator, a bracket or white space. */
const ENDS_SCALAR = new Set([COMMA, CLOSE_BRACE, CLOSE_BRACKET, 32, 9, 10, 13]);

/** The offset of the quote that closes the string opening at `start` (the text's length if none). */
function stringEnd(text: string, start: number): number {
  let i = text.indexOf('"', start + 1);
  while (i !== -1) {
    let backslashes = 0;
    for (let j = i - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return i;
    i = text.indexOf('"', i + 1);
  }
  return text.length;
}

function skipSpace(text: string, start: number): number {
  let i = start;
  for (;;) {
    const ch = text.charCodeAt(i);
    if (ch !== 32 && ch !== 10 && ch !== 13 && ch !== 9) return i;
    i++;
  }
}
