import type { Json, JsonObject } from "../engine/ports.ts";
import type { StorageDelta } from "./protocol.ts";

/**
 * The host's picture of the storage a sandbox process holds for one phase.
 * The engine replaces storage values and never changes them in place, so a
 * value with the same identity as the one last sent is unchanged: a call
 * sends only the keys whose values changed (as JSON), and its cost does not
 * grow with storage the phase's scripts and effects leave alone.
 */
export class StorageMirror {
  /** Key -> the value the process holds (by identity); null: the process holds nothing yet. */
  private held: Map<string, Json> | null = null;
  private order: string[] = [];

  /** The process lost its copy (a new process or context): the next delta is whole. */
  forget(): void {
    this.held = null;
    this.order = [];
  }

  delta(storage: JsonObject): StorageDelta {
    const keys = Object.keys(storage);
    const set: Record<string, string> = {};
    if (this.held === null) {
      const held = new Map<string, Json>();
      for (const key of keys) {
        const value = storage[key] as Json;
        define(set, key, JSON.stringify(value));
        held.set(key, value);
      }
      this.held = held;
      this.order = keys;
      return { full: true, set, del: [], order: keys };
    }
    const held = this.held;
    let sameOrder = keys.length === this.order.length;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (sameOrder && this.order[i] !== key) sameOrder = false;
      const value = storage[key] as Json;
      if (!held.has(key) || held.get(key) !== value) {
        define(set, key, JSON.stringify(value));
        held.set(key, value);
      }
    }
    const del: string[] = [];
    if (!sameOrder) {
      const present = new Set(keys);
      for (const key of held.keys()) if (!present.has(key)) del.push(key);
      for (const key of del) held.delete(key);
      this.order = keys;
    }
    return { full: false, set, del, order: sameOrder ? null : keys };
  }

  /** Records what the process holds after a script changed storage. */
  adopt(
    storage: JsonObject,
    changed: Iterable<string>,
    gone: readonly string[],
    order: string[] | null,
  ): void {
    if (this.held === null) return;
    for (const key of changed) this.held.set(key, storage[key] as Json);
    for (const key of gone) this.held.delete(key);
    if (order) this.order = order;
  }
}

interface Changes {
  o: string[] | null;
  s: Record<string, Json>;
  d: string[];
}

/**
 * The storage after a script: the given object itself when the script
 * changed nothing, else a new object sharing the unchanged values, in the
 * key order the script left.
 */
export function applyChanges(given: JsonObject, text: string | null, mirror: StorageMirror): JsonObject {
  if (text === null) return given;
  const changes = JSON.parse(text) as Changes;
  const order = changes.o ?? Object.keys(given);
  const next: JsonObject = {};
  for (const key of order) {
    define(next, key, (Object.hasOwn(changes.s, key) ? changes.s[key] : given[key]) as Json);
  }
  mirror.adopt(next, Object.keys(changes.s), changes.d, changes.o);
  return next;
}

/** An own data property, also for the key `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment makes the same own property for every other key, and costs far less.
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
