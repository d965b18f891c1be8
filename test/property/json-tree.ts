/**
 * Plain JSON values as a tree of sites (every node with the way to reach it),
 * and the writes the mutations need. Keys are always written as own data
 * properties, so that a key such as "__proto__" stays an ordinary key, as it
 * is when JSON.parse reads it from a file.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Segment = string | number;

export interface Site {
  path: Segment[];
  value: Json;
  /** The container holding this node; undefined for the root. */
  parent: Json[] | JsonObject | undefined;
  key: Segment | undefined;
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every node in document order. Iterative, so deep values cannot overflow the stack. */
export function sitesOf(root: Json): Site[] {
  const sites: Site[] = [];
  const stack: Site[] = [{ path: [], value: root, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const site = stack.pop()!;
    sites.push(site);
    const { value, path } = site;
    const children: Site[] = [];
    if (Array.isArray(value))
      for (let i = 0; i < value.length; i++)
        children.push({ path: [...path, i], value: value[i]!, parent: value, key: i });
    else if (isObject(value))
      for (const [key, child] of Object.entries(value))
        children.push({ path: [...path, key], value: child, parent: value, key });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return sites;
}

/** A deep copy that keeps "__proto__" and friends as own keys. */
export function copyJson<T extends Json>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function setOwn(container: Json[] | JsonObject, key: Segment, value: Json): void {
  if (Array.isArray(container)) container[Number(key)] = value;
  else Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

export function removeOwn(container: Json[] | JsonObject, key: Segment): void {
  if (Array.isArray(container)) container.splice(Number(key), 1);
  else delete container[String(key)];
}

/** Renames a key in place, keeping its position; a key it collides with is overwritten. */
export function renameOwn(container: JsonObject, from: string, to: string): void {
  const entries = Object.entries(container).flatMap(([key, value]): [string, Json][] =>
    key === from ? [[to, value]] : key === to ? [] : [[key, value]],
  );
  for (const key of Object.keys(container)) delete container[key];
  for (const [key, value] of entries) setOwn(container, key, value);
}
