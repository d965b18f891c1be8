/**
 * `JSON.stringify(value)?.length` and `JSON.stringify(value, null, 2)?.length`
 * without building the text: the size caps (limit/trigger-size,
 * limit/regions-section) need only the length, and the text is a megabyte of
 * garbage per check at the caps. The walk counts what JSON.stringify would
 * write; whatever it does not know for certain (a value that is not plain
 * JSON data: a class instance, a `toJSON` method, a bigint, a cycle or a
 * nesting deeper than any loaded world) makes it ask JSON.stringify itself,
 * so the answer is always JSON.stringify's, thrown errors included.
 */
export function compactJsonLength(value: unknown): number | undefined {
  const length = measure(value, false, true);
  return length < 0 ? JSON.stringify(value)?.length : length;
}

/** As JSON.stringify(value, null, 2)?.length. */
export function prettyJsonLength(value: unknown): number | undefined {
  const length = measure(value, true, true);
  return length < 0 ? JSON.stringify(value, null, 2)?.length : length;
}

/**
 * True when `JSON.stringify(value)` is surely at most `limit` characters, given
 * `slack` from `escapeSlack` of the text the value was parsed from; false when
 * it may be longer (then measure it). A cap almost never reached is ruled out
 * this way without testing each string for characters to escape: the walk
 * counts every string as if none had any, and the slack covers those there are.
 */
export function compactJsonWithin(value: unknown, limit: number, slack: number): boolean {
  return within(value, false, limit, slack);
}

/** As compactJsonWithin, for JSON.stringify(value, null, 2). */
export function prettyJsonWithin(value: unknown, limit: number, slack: number): boolean {
  return within(value, true, limit, slack);
}

function within(value: unknown, pretty: boolean, limit: number, slack: number): boolean {
  try {
    const length = measure(value, pretty, false);
    return length >= 0 && length + slack <= limit;
  } catch {
    // Only a value that is not JSON data throws (a getter, a proxy): measured, it throws again or answers.
    return false;
  }
}

/**
 * The most characters that escapes can add to the JSON of any part of a value
 * JSON.parse made from `text` (each node of it reached once: no part shared), over
 * the same JSON counted with no escape at all: a character JSON.stringify escapes
 * (a quote, a backslash, a control character, a lone surrogate) comes from an
 * escape sequence of the text, one backslash each, unless the text holds a lone
 * surrogate of its own (then there is no bound: Infinity), and is written in at
 * most 6 characters (`\u001f`) instead of 1. Counted from backslash to backslash
 * with indexOf, which searches in native code.
 */
export function escapeSlack(text: string | undefined): number {
  // String.prototype.isWellFormed (Node 20) is not in the ES2023 library the project compiles against.
  const wellFormed = (text as { isWellFormed?: () => boolean } | undefined)?.isWellFormed;
  if (text === undefined || typeof wellFormed !== "function" || !wellFormed.call(text))
    return Number.POSITIVE_INFINITY;
  let backslashes = 0;
  for (let at = text.indexOf("\\"); at >= 0; at = text.indexOf("\\", at + 1)) backslashes++;
  return 5 * backslashes;
}

/** The walk could not be sure: JSON.stringify decides. */
const UNKNOWN = -1;
/** Deeper than the loader's nesting cap: JSON.stringify decides (and reports a cycle by throwing). */
const MAX_DEPTH = 512;

/** Characters that JSON.stringify escapes: a quote, a backslash, controls and lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringLength(text: string): number {
  return ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/**
 * Keys repeat (every trigger has the same few field names), and a Map lookup costs a fraction of
 * a regular expression test in the mostly interpreted walk. Bounded, since the keys come from the file.
 */
const keyLengths = new Map<string, number>();
const MAX_KEYS = 4096;

function keyLength(key: string): number {
  let length = keyLengths.get(key);
  if (length === undefined) {
    length = stringLength(key);
    if (keyLengths.size >= MAX_KEYS) keyLengths.clear();
    keyLengths.set(key, length);
  }
  return length;
}

/** True when some code gave Object.prototype an enumerable key (for-in would list it on every object). */
function inheritsEnumerable(): boolean {
  for (const _ in {}) return true;
  return false;
}

/**
 * The length of `value` as JSON writes it (with 2-space indentation when
 * `pretty`; every string as if it had nothing to escape unless `exact`), or
 * UNKNOWN (also for a value JSON leaves out, which has no length).
 *
 * Every character written belongs to one container or one scalar, so the
 * length is a plain sum and no container needs a result of its own: one loop
 * over a stack of pending containers, with no recursion and no call per string
 * (the walk runs once per check in unoptimised code, where calls are most of
 * the cost). A member's key, separator and scalar value are added as it
 * passes; a container's brackets, commas and indentation when it is taken
 * from the stack.
 */
function measure(value: unknown, pretty: boolean, exact: boolean): number {
  if (value === null || typeof value !== "object") {
    const length = scalarLength(value, exact);
    return length === ABSENT ? UNKNOWN : length;
  }
  // The stacks of the last walk, reused (growing new ones cost a tenth of the walks over a world's
  // triggers), unless a getter started a walk inside this one.
  const nodes = walking ? [] : sharedNodes;
  const depths = walking ? [] : sharedDepths;
  walking = true;
  try {
    return walk(nodes, depths, value, pretty, exact);
  } finally {
    if (nodes === sharedNodes) {
      // Kept for the next walk, but not the world's nodes it held; a stack grown long (a long array
      // of objects) is let go rather than cleared whole after every later walk.
      if (sharedNodes.length > MAX_KEPT) {
        sharedNodes.length = 0;
        sharedDepths.length = 0;
      } else sharedNodes.fill(EMPTY);
      walking = false;
    }
  }
}

const EMPTY = {};
const MAX_KEPT = 256;
const sharedNodes: object[] = [];
const sharedDepths: number[] = [];
let walking = false;

function walk(nodes: object[], depths: number[], value: object, pretty: boolean, exact: boolean): number {
  // While Object.prototype has no enumerable key, for-in lists a plain object's own keys alone.
  const ownOnly = !inheritsEnumerable();
  const colon = pretty ? 2 : 1;
  // Read once: each is a global's property, loaded afresh at every use in unoptimised code.
  const isArray = Array.isArray;
  const prototypeOf = Object.getPrototypeOf;
  const arrayPrototype = Array.prototype;
  const objectPrototype = Object.prototype;
  nodes[0] = value;
  depths[0] = 0;
  let top = 1;
  let total = 0;
  while (top > 0) {
    top--;
    const node = nodes[top]!;
    const depth = depths[top]!;
    if (depth > MAX_DEPTH) return UNKNOWN;
    let count = 0;
    if (isArray(node)) {
      if (prototypeOf(node) !== arrayPrototype || typeof (node as { toJSON?: unknown }).toJSON === "function")
        return UNKNOWN;
      count = node.length;
      for (let i = 0; i < count; i++) {
        const child: unknown = node[i];
        if (typeof child === "string") total += exact ? stringLength(child) : child.length + 2;
        else if (child !== null && typeof child === "object") {
          nodes[top] = child;
          depths[top++] = depth + 1;
        } else {
          const length = scalarLength(child, exact);
          if (length === UNKNOWN) return UNKNOWN;
          // An element JSON leaves out is written as null.
          total += length === ABSENT ? 4 : length;
        }
      }
    } else {
      const proto = prototypeOf(node);
      if (
        (proto !== objectPrototype && proto !== null) ||
        typeof (node as { toJSON?: unknown }).toJSON === "function"
      )
        return UNKNOWN;
      for (const key in node) {
        if (!ownOnly && !Object.hasOwn(node, key)) continue;
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === "string") total += exact ? stringLength(child) : child.length + 2;
        else if (child !== null && typeof child === "object") {
          nodes[top] = child;
          depths[top++] = depth + 1;
        } else {
          const length = scalarLength(child, exact);
          if (length === UNKNOWN) return UNKNOWN;
          // A member JSON leaves out is not written at all, nor its key.
          if (length === ABSENT) continue;
          total += length;
        }
        // The key and ":" (": " when pretty).
        total += (exact ? keyLength(key) : key.length + 2) + colon;
        count++;
      }
    }
    if (count === 0) total += 2;
    // Brackets and commas; pretty, each member on its own line (a newline and the next level's
    // indentation), then a newline and this level's indentation before the closing bracket.
    else total += count + 1 + (pretty ? count * (2 * depth + 3) + 2 * depth + 1 : 0);
  }
  return total;
}

/** A value JSON.stringify leaves out (undefined, a function, a symbol): skipped in an object, `null` in an array. */
const ABSENT = -2;

/** The length of a value that is not a container, ABSENT, or UNKNOWN (a bigint: JSON.stringify throws). */
function scalarLength(value: unknown, exact: boolean): number {
  if (typeof value === "string") return exact ? stringLength(value) : value.length + 2;
  if (typeof value === "number") return Number.isFinite(value) ? numberLength(value) : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  if (typeof value === "bigint") return UNKNOWN;
  return ABSENT;
}

/** Digits of a finite number as JSON writes it (as String does). */
function numberLength(n: number): number {
  if (Number.isSafeInteger(n) && n >= 0 && n < 1e9) {
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    return digits;
  }
  return String(n).length;
}
