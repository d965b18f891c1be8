import { isPlainObject } from "./values.ts";

/**
 * Merges a patch into a copy of a JSON value: objects merge key by key,
 * anything else replaces, and a key set to `undefined` is deleted. Rule
 * examples and tests describe worlds as patches on a base world.
 */
export function applyPatch<T>(base: T, patch: unknown): T {
  if (!isPlainObject(patch) || !isPlainObject(base)) return structuredClone(patch) as T;
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete out[key];
    else {
      // defineProperty, not assignment: a "__proto__" key must stay a plain key.
      const merged = Object.hasOwn(out, key) ? applyPatch(out[key], value) : applyPatch(undefined, value);
      Object.defineProperty(out, key, {
        value: merged,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out as T;
}
