/**
 * Sets an own, enumerable property. Record keys here come from world authors,
 * players and scripts, and `record[key] = value` with the key "__proto__"
 * would change the record's prototype instead of storing the value.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Plain assignment makes the same own data property (the records are plain JSON, with no setters
  // but Object.prototype's "__proto__"), and is much cheaper than defineProperty on a hot path.
  if (key !== "__proto__") record[key] = value;
  else Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A record's own value for a key (never one inherited from Object.prototype);
 * undefined when the record is missing or not an object (a malformed world).
 */
export function own<T>(record: Record<string, T> | null | undefined, key: string): T | undefined {
  return record !== null && typeof record === "object" && Object.hasOwn(record, key)
    ? record[key]
    : undefined;
}
