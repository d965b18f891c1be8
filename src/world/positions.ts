import type { JsonPath } from "./diagnostic.ts";

/**
 * Every `{` and `[` of a JSON text with its closing bracket: the offsets of
 * the opening brackets in text order, and at the same place the offsets of
 * their closing ones. A nesting scan that visits every bracket anyway
 * (findExcessiveNesting with `counts`) records them as it goes. The loader
 * does not scan a text JSON.parse accepts (src/world/load.ts): PositionIndex
 * then skips the containers it passes over without pairing the brackets, and
 * pairs them (`pairBrackets`) only for a container nested too deep for that.
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

/** How deep CONTAINER_SOURCE follows nested containers; a value nested deeper pairs the text's brackets. */
const SKIP_DEPTH = 10;
/** A whole string, escapes included. */
const STRING_SOURCE = String.raw`"[^"\\]*(?:\\[\s\S][^"\\]*)*"`;
/** Anything but a quote or a bracket: white space, separators, numbers, true, false, null. */
const PLAIN_SOURCE = String.raw`[^"[\]{}]*`;

/**
 * A whole object or array of a valid JSON text nested at most SKIP_DEPTH
 * deep, from its opening bracket to the closing one: each level is a bracket,
 * then plain text, strings and containers of one level less, then a bracket
 * (valid JSON pairs `{` with `}`, so the kinds need not be told apart). Every
 * part starts with a character no other part starts with, so a match never
 * backtracks further than one character per part. Built on first use: a valid
 * world needs no position.
 */
function containerSource(): string {
  let container = `[[{]${PLAIN_SOURCE}(?:${STRING_SOURCE}${PLAIN_SOURCE})*[\\]}]`;
  for (let depth = 1; depth < SKIP_DEPTH; depth++)
    container = `[[{]${PLAIN_SOURCE}(?:(?:${STRING_SOURCE}|${container})${PLAIN_SOURCE})*[\\]}]`;
  return container;
}

let containerPattern: RegExp | undefined;

/** JSON's white space: in a valid text, the only white space outside strings. */
const SPACE_SOURCE = "[ \\t\\n\\r]*";

/**
 * An object's member from its key's opening quote: a key without escapes
 * (group 1), the colon, and a string, number, true, false or null value with
 * the comma and white space after it, so that one match (native code) takes a
 * member where a loop per character cost some thousand instructions in a cold
 * check. A container value is not taken: the match then ends at its bracket.
 * An escaped key does not match: the listing takes that member step by step.
 */
const MEMBER = new RegExp(
  `"([^"\\\\]*)"${SPACE_SOURCE}:${SPACE_SOURCE}(?:(?:${STRING_SOURCE}|[^"[\\]{},\\s]+)${SPACE_SOURCE}(?:,${SPACE_SOURCE})?)?`,
  "y",
);

/**
 * Where the values of a valid JSON text start, found lazily: a path is
 * followed from the root, listing the members of only the objects and arrays
 * on that path, and of those only as far as the path's key or index (the
 * listing goes on from there when a later path asks for more). A container
 * passed over is skipped by one match of a regular expression (native code)
 * over its text: a check with warnings pairs no brackets of its world (the
 * loop per bracket cost a cold `check` with 150 warnings about 60 M
 * instructions at the caps, the matches about half as much). Pairs a nesting
 * scan recorded are used instead when given; a container nested deeper than
 * SKIP_DEPTH, or one the expression's backtracking stack cannot hold, makes
 * the index pair the whole text once (pairBrackets). Nothing recurses, so no
 * nesting depth can overflow the stack.
 */
export class PositionIndex {
  readonly #text: string;
  #brackets: BracketPairs | undefined;
  /** Offset of an object -> its members listed so far (the first of duplicated keys, as editors show them). */
  readonly #members = new Map<number, Listing<Map<string, Member>>>();
  /** Offset of an array -> the offsets of its elements listed so far. */
  readonly #elements = new Map<number, Listing<number[]>>();
  readonly #root: number;
  #container: RegExp | undefined;

  /** `brackets`: the pairs of this very text, when a scan already recorded them. */
  constructor(text: string, brackets?: BracketPairs) {
    this.#text = text;
    this.#brackets = brackets;
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
    for (let s = 0; s < path.length; s++) {
      const segment = path[s] as string | number;
      const ch = this.#text.charCodeAt(offset);
      if (typeof segment === "string") {
        if (ch !== OPEN_BRACE) return undefined;
        const member = this.#memberOf(offset, segment);
        if (!member) return undefined;
        offset = member.value;
        keyOffset = member.key;
      } else {
        if (ch !== OPEN_BRACKET) return undefined;
        const element = this.#elementOf(offset, segment);
        if (element === undefined) return undefined;
        offset = element;
        keyOffset = undefined;
      }
    }
    const end = this.#valueEnd(offset);
    return { offset: atKey && keyOffset !== undefined ? keyOffset : offset, end };
  }

  /** The member `key` of the object at `offset`, listing its members up to it. */
  #memberOf(offset: number, key: string): Member | undefined {
    const text = this.#text;
    let listing = this.#members.get(offset);
    if (!listing) {
      listing = { found: new Map(), next: skipSpace(text, offset + 1), last: -1 };
      this.#members.set(offset, listing);
    }
    const members = listing.found;
    const known = members.get(key);
    if (known) return this.#resolved(known);
    let i = this.#resume(listing);
    while (text.charCodeAt(i) === QUOTE) {
      const at = i;
      /** A container value the listing goes on after, or -1 (then `i` is the next key, or -1). */
      let pending = -1;
      let name: string | undefined;
      MEMBER.lastIndex = at;
      let match: RegExpExecArray | null = null;
      try {
        match = MEMBER.exec(text);
      } catch {
        // A string of some millions of escapes overflows the expression's stack: the steps below take it.
      }
      if (match) {
        name = match[1] as string;
        i = MEMBER.lastIndex;
        const ch = text.charCodeAt(i);
        if (ch === OPEN_BRACE || ch === OPEN_BRACKET) pending = i;
        else if (ch !== QUOTE) i = -1;
      } else {
        const keyEnd = stringEnd(text, at);
        const raw = text.slice(at + 1, keyEnd);
        name = raw.includes("\\") ? (JSON.parse(text.slice(at, keyEnd + 1)) as string) : raw;
        pending = skipSpace(text, skipSpace(text, keyEnd + 1) + 1);
      }
      if (!members.has(name)) {
        const member = { key: at, value: -1 };
        members.set(name, member);
        if (name === key) {
          // Where a container value ends is worked out when a later key is asked for, if one is.
          if (pending >= 0) listing.last = pending;
          else listing.next = i;
          return this.#resolved(member);
        }
      }
      if (pending >= 0) i = this.#after(pending);
    }
    listing.next = -1;
    return undefined;
  }

  /** The member with the offset of its value, worked out when it is first returned. */
  #resolved(member: Member): Member {
    if (member.value < 0) {
      const text = this.#text;
      member.value = skipSpace(text, skipSpace(text, stringEnd(text, member.key) + 1) + 1);
    }
    return member;
  }

  /** Element `n` of the array at `offset`, listing its elements up to it. */
  #elementOf(offset: number, n: number): number | undefined {
    const text = this.#text;
    let listing = this.#elements.get(offset);
    if (!listing) {
      const first = skipSpace(text, offset + 1);
      listing = { found: [], next: text.charCodeAt(first) === CLOSE_BRACKET ? -1 : first, last: -1 };
      this.#elements.set(offset, listing);
    }
    const elements = listing.found;
    if (n < elements.length) return elements[n];
    let i = this.#resume(listing);
    while (i >= 0 && i < text.length) {
      elements.push(i);
      if (elements.length > n) {
        listing.last = i;
        return i;
      }
      i = this.#after(i);
    }
    listing.next = -1;
    return undefined;
  }

  /** Where a listing goes on: after the value last listed, when there is one. */
  #resume<T>(listing: Listing<T>): number {
    if (listing.last >= 0) {
      listing.next = this.#after(listing.last);
      listing.last = -1;
    }
    return listing.next;
  }

  /** The start of the next member or element after the value at `offset`, or -1 after the last. */
  #after(offset: number): number {
    const text = this.#text;
    const i = skipSpace(text, this.#valueEnd(offset));
    return text.charCodeAt(i) === COMMA ? skipSpace(text, i + 1) : -1;
  }

  /** The offset just after the value that starts at `offset`. */
  #valueEnd(offset: number): number {
    const text = this.#text;
    const ch = text.charCodeAt(offset);
    if (ch === QUOTE) return stringEnd(text, offset) + 1;
    if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      const close = this.#closeOf(offset);
      return (close < 0 ? text.length - 1 : close) + 1;
    }
    // A number, true, false or null: in valid JSON, a separator, a bracket or white space ends it.
    let i = offset;
    for (let c = ch; i < text.length && c > 32 && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET; )
      c = text.charCodeAt(++i);
    return i;
  }

  /** The closing bracket of the one at `offset`, or -1. */
  #closeOf(offset: number): number {
    if (!this.#brackets) {
      containerPattern ??= new RegExp(containerSource(), "y");
      this.#container ??= new RegExp(containerPattern);
      const container = this.#container;
      container.lastIndex = offset;
      try {
        if (container.test(this.#text)) return container.lastIndex - 1;
      } catch {
        // The backtracking stack overflowed (some millions of strings in one container): pair them below.
      }
      this.#brackets = pairBrackets(this.#text);
    }
    return closeOf(this.#brackets, offset);
  }
}

/**
 * What an object's or array's listing holds so far, and where it goes on: `next` (-1: listed to
 * the end), unless `last`, the value listed last, is set: the listing then goes on after it.
 */
interface Listing<T> {
  found: T;
  next: number;
  last: number;
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
  /** -1 until the member is first returned (see #resolved). */
  value: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

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
