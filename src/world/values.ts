import type { JsonPath } from "./diagnostic.ts";
import { perFrozenValue } from "./per-world.ts";

/** Small helpers for looking at JSON values of unknown shape without throwing. */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Freezes a value and everything under it (a frozen object's children are taken as frozen already, so nothing may freeze a node before everything under it). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object" || Object.isFrozen(node)) continue;
    Object.freeze(node);
    if (Array.isArray(node)) {
      // By index: an iterator allocates a result per element in code that runs once (interpreted).
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child !== null && typeof child === "object") stack.push(child);
      }
    } else {
      for (const key in node) {
        const child = (node as Record<string, unknown>)[key];
        if (child !== null && typeof child === "object") stack.push(child);
      }
    }
  }
  return value;
}

/** How a value reads in a message: `the string "5"`, `a number (5)`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `the boolean ${value}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

const frozenEntries = perFrozenValue((value: Record<string, unknown>) =>
  Object.freeze(Object.entries(value)),
);

/** Entries of a value that should be an object; none when it is anything else. Read-only: shared per frozen world. */
export function entriesOf(value: unknown): readonly [string, unknown][] {
  return isPlainObject(value) ? frozenEntries(value) : [];
}

/** Elements of a value that should be an array; none when it is anything else. */
export function elementsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
