import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * A turn row's large texts (its state, trace and cassette) as SQLite keeps them: deflated (issue 33:
 * at 500 turns of the at-cap world a row held about 1 MB of JSON, so a long game took hundreds of
 * megabytes). PostgreSQL compresses them itself (lz4, migration 0003), so there they stay text.
 * A row written before this is text and reads as it is: no migration rewrites old games.
 */
const PACKED = ["state", "trace", "cassette"] as const;

/** Level 1: most of the saving (JSON repeats itself) for a fraction of the default level's CPU. */
const LEVEL = 1;

/** The row as the store writes it: its large texts deflated when `pack` (SQLite). */
export function packTurn<T extends Partial<Record<(typeof PACKED)[number], string | null>>>(
  turn: T,
  pack: boolean,
): T {
  if (!pack) return turn;
  const packed: Record<string, unknown> = { ...turn };
  for (const column of PACKED) {
    const text = turn[column];
    if (typeof text === "string") packed[column] = deflateRawSync(text, { level: LEVEL });
  }
  return packed as T;
}

/** A large text as read from either store: deflated bytes (SQLite, since this) or text. */
export function unpackText<T extends string | null>(value: T | Uint8Array): T {
  if (value instanceof Uint8Array) return inflateRawSync(value).toString("utf8") as T;
  return value;
}

/** A read row (any of its columns) with its large texts as text. */
export function unpackRow<R extends Partial<Record<(typeof PACKED)[number], unknown>>>(row: R): R {
  let out: R | undefined;
  for (const column of PACKED) {
    const value = row[column];
    if (value instanceof Uint8Array) {
      out ??= { ...row };
      (out as Record<string, unknown>)[column] = inflateRawSync(value).toString("utf8");
    }
  }
  return out ?? row;
}
