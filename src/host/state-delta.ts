/**
 * A turn's state as a delta from the state before it (issue 33): a saved
 * history keeps the opening's state whole and every later state as what
 * changed, so that a save of 500 turns does not hold 500 copies of a story
 * that grows every turn. Key order is part of the delta: a state rebuilt from
 * its deltas writes the same bytes as the state that was played.
 *
 * A patch is one of:
 * - `{ s: value }`: the value, whole (a leaf that changed, a list rewritten);
 * - `{ a: items }`: a list that kept its first entries and grew by `items`
 *   (the story, the actions and the log only ever grow);
 * - `{ o: patches, k?: keys }`: an object patched key by key; `k` is the new
 *   key order when keys came or went.
 * An unchanged value has no patch.
 */
export type Patch = { s: unknown } | { a: unknown[] } | { o: Record<string, Patch>; k?: string[] };

/** The patch that turns `before` into `after`; undefined when they are equal. */
export function diffValue(before: unknown, after: unknown): Patch | undefined {
  if (before === after) return undefined;
  if (Array.isArray(before) && Array.isArray(after)) return diffArray(before, after);
  if (isRecord(before) && isRecord(after)) return diffRecord(before, after);
  return sameValue(before, after) ? undefined : { s: after };
}

/**
 * The value `patch` makes of `before`. Unchanged parts are shared with `before`, not copied: a
 * history's states are never changed in place (a turn works on a draft, draft.ts).
 */
export function applyPatch(before: unknown, patch: Patch | undefined): unknown {
  if (patch === undefined) return before;
  if ("s" in patch) return patch.s;
  if ("a" in patch) {
    if (!Array.isArray(before)) throw new Error("a list patch meets a value that is not a list");
    return before.concat(patch.a);
  }
  if (!isRecord(before)) throw new Error("an object patch meets a value that is not an object");
  const out: Record<string, unknown> = {};
  const keys = patch.k ?? Object.keys(before);
  for (const key of keys) {
    const value = Object.hasOwn(patch.o, key) ? applyPatch(before[key], patch.o[key]) : before[key];
    // defineProperty: an own "__proto__" key (storage may hold one) stays a plain property.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function diffArray(before: unknown[], after: unknown[]): Patch | undefined {
  if (after.length >= before.length) {
    let prefix = true;
    for (let i = 0; i < before.length && prefix; i++) prefix = sameValue(before[i], after[i]);
    if (prefix) return after.length === before.length ? undefined : { a: after.slice(before.length) };
  }
  return { s: after };
}

function diffRecord(before: Record<string, unknown>, after: Record<string, unknown>): Patch | undefined {
  const keysBefore = Object.keys(before);
  const keysAfter = Object.keys(after);
  const o: Record<string, Patch> = {};
  let changed = false;
  for (const key of keysAfter) {
    const patch = Object.hasOwn(before, key) ? diffValue(before[key], after[key]) : { s: after[key] };
    if (patch === undefined) continue;
    Object.defineProperty(o, key, { value: patch, enumerable: true, writable: true, configurable: true });
    changed = true;
  }
  const reordered = !sameKeys(keysBefore, keysAfter);
  if (!changed && !reordered) return undefined;
  return reordered ? { o, k: keysAfter } : { o };
}

/** Deep equality of JSON values, key order included (it decides the bytes of a save). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    if (!sameKeys(keys, Object.keys(b))) return false;
    for (const key of keys) if (!sameValue(a[key], b[key])) return false;
    return true;
  }
  return false;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
