import { isPlainObject } from "./values.ts";

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
  ownOnly = !inheritsEnumerable();
  const length = measure(value, -1, 0);
  return length < 0 ? JSON.stringify(value)?.length : length;
}

/** As JSON.stringify(value, null, 2)?.length. */
export function prettyJsonLength(value: unknown): number | undefined {
  ownOnly = !inheritsEnumerable();
  const length = measure(value, 0, 0);
  return length < 0 ? JSON.stringify(value, null, 2)?.length : length;
}

/** The walk could not be sure: JSON.stringify decides. */
const UNKNOWN = -1;
/** A value JSON.stringify leaves out (undefined, a function, a symbol): skipped in an object, `null` in an array. */
const ABSENT = -2;
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

/**
 * True while Object.prototype has no enumerable key (set per measure): a plain object's for-in
 * then lists its own keys alone, and the own-key test per key is skipped.
 */
let ownOnly = false;

function inheritsEnumerable(): boolean {
  for (const _ in {}) return true;
  return false;
}

/**
 * The length of `value` written at indentation `level` (in steps of two
 * spaces), or compact when `level` is negative; UNKNOWN or ABSENT otherwise.
 */
function measure(value: unknown, level: number, depth: number): number {
  switch (typeof value) {
    case "string":
      return stringLength(value);
    case "number":
      return Number.isFinite(value) ? numberLength(value) : 4;
    case "boolean":
      return value ? 4 : 5;
    case "undefined":
    case "function":
    case "symbol":
      return ABSENT;
    case "bigint":
      return UNKNOWN;
  }
  if (value === null) return 4;
  if (depth > MAX_DEPTH) return UNKNOWN;
  const pretty = level >= 0;
  // Pretty: each member on its own line ("\n" and the indentation of the next level), then "\n" and this level's indentation before the closing bracket.
  const lead = pretty ? 1 + 2 * (level + 1) : 0;
  const inner = pretty ? level + 1 : -1;
  if (Array.isArray(value)) {
    if (
      Object.getPrototypeOf(value) !== Array.prototype ||
      typeof (value as { toJSON?: unknown }).toJSON === "function"
    )
      return UNKNOWN;
    const count = value.length;
    if (count === 0) return 2;
    let total = 2 + (count - 1) + count * lead + (pretty ? 1 + 2 * level : 0);
    for (let i = 0; i < count; i++) {
      const child = measure(value[i], inner, depth + 1);
      if (child === UNKNOWN) return UNKNOWN;
      total += child === ABSENT ? 4 : child;
    }
    return total;
  }
  if (!isPlainObject(value) || typeof value.toJSON === "function") return UNKNOWN;
  let total = 0;
  let count = 0;
  for (const key in value) {
    if (!ownOnly && !Object.hasOwn(value, key)) continue;
    const child = measure(value[key], inner, depth + 1);
    if (child === UNKNOWN) return UNKNOWN;
    if (child === ABSENT) continue;
    // The key, ":" (": " when pretty), the value.
    total += keyLength(key) + (pretty ? 2 : 1) + child;
    count++;
  }
  if (count === 0) return 2;
  return total + 2 + (count - 1) + count * lead + (pretty ? 1 + 2 * level : 0);
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
