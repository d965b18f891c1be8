/**
 * The state diff of a turn: every leaf that changed, as {path, before, after}.
 * Objects are compared key by key and arrays index by index; a value that
 * appeared has no `before`, one that went away has no `after`. The PRNG state
 * and the log are left out: the PRNG changes on every draw and says nothing to a
 * reader, and the turn result lists its new log entries on their own.
 */
export interface DiffEntry {
  path: (string | number)[];
  before?: unknown;
  after?: unknown;
}

const SKIPPED = new Set(["rng", "log"]);

export function diffStates(before: unknown, after: unknown): DiffEntry[] {
  const out: DiffEntry[] = [];
  if (isObject(before) && isObject(after)) walkObject(before, after, [], out, true);
  else walk(before, after, [], out);
  return out;
}

/**
 * `path` is the walk's own stack, pushed and popped; an entry gets a copy. Arrays and objects are
 * walked by functions of their own: each stays small for V8 to optimise, the turn's first ones
 * included.
 */
function walk(a: unknown, b: unknown, path: (string | number)[], out: DiffEntry[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) walkArray(a, b, path, out);
  else if (isObject(a) && isObject(b)) walkObject(a, b, path, out, false);
  else out.push({ path: [...path], before: a, after: b });
}

function walkArray(a: unknown[], b: unknown[], path: (string | number)[], out: DiffEntry[]): void {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (i >= a.length) out.push({ path: [...path, i], after: b[i] });
    else if (i >= b.length) out.push({ path: [...path, i], before: a[i] });
    else if (a[i] !== b[i]) {
      path.push(i);
      walk(a[i], b[i], path, out);
      path.pop();
    }
  }
}

function walkObject(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  path: (string | number)[],
  out: DiffEntry[],
  root: boolean,
): void {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (sameKeys(keysA, keysB)) {
    // The same keys in the same order (most records of a turn): only values can differ.
    for (const key of keysA) {
      if (a[key] === b[key] || (root && SKIPPED.has(key))) continue;
      path.push(key);
      walk(a[key], b[key], path, out);
      path.pop();
    }
    return;
  }
  for (const key of keysA) {
    if (root && SKIPPED.has(key)) continue;
    if (!Object.hasOwn(b, key)) out.push({ path: [...path, key], before: a[key] });
    else if (a[key] !== b[key]) {
      path.push(key);
      walk(a[key], b[key], path, out);
      path.pop();
    }
  }
  for (const key of keysB) {
    if (root && SKIPPED.has(key)) continue;
    if (!Object.hasOwn(a, key)) out.push({ path: [...path, key], after: b[key] });
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
