import { inflateRawSync } from "node:zlib";
import { type AliasedRawBuilder, type RawBuilder, sql } from "kysely";

/**
 * A turn row's large texts (its state, trace and cassette) as SQLite keeps them: deflated (issue 33:
 * at 500 turns of the at-cap world a row held about 1 MB of JSON, so a long game took hundreds of
 * megabytes). PostgreSQL compresses them itself (lz4, migration 0003), so there they stay text.
 * A row written before this is text and reads as it is: no migration rewrites old games.
 *
 * SQLite's thread deflates and inflates them (the SQL functions tf_deflate and tf_inflate that
 * sqlite-worker.ts defines, raw deflate at level 1), not the server's thread (issue 38): there they
 * took some 0.5 ms of the event loop per turn, and the deflated bytes, in buffers zlib sized for its
 * own output, cost more to post to the thread than the text they came from.
 */
const PACKED = ["state", "trace", "cassette"] as const;
type Packed = (typeof PACKED)[number];

/** The row as the store writes it: its large texts deflated by SQLite's thread when `pack` (SQLite). */
export function packTurn<T extends Partial<Record<Packed, string | null>>>(turn: T, pack: boolean): T {
  if (!pack) return turn;
  const packed: Record<string, unknown> = { ...turn };
  for (const column of PACKED) {
    const text = turn[column];
    if (typeof text === "string") packed[column] = sql<string>`tf_deflate(${text})`;
  }
  return packed as T;
}

/**
 * A large column as a select reads it: as text, inflated by SQLite's thread when `pack` (SQLite; a
 * row written as text before this reads as it is).
 */
export function packedColumn<C extends Packed>(
  column: C,
  pack: boolean,
): AliasedRawBuilder<C extends "trace" ? string | null : string, C> {
  const value: RawBuilder<C extends "trace" ? string | null : string> = pack
    ? sql`tf_inflate(${sql.ref(column)})`
    : sql`${sql.ref(column)}`;
  return value.as(column);
}

/** A large text as stored in SQLite's file: deflated bytes (since issue 33) or text (before). */
export function unpackText<T extends string | null>(value: T | Uint8Array): T {
  if (value instanceof Uint8Array) return inflateRawSync(value).toString("utf8") as T;
  return value;
}

/** A row read from SQLite's file by other means than the store (tests) with its large texts as text. */
export function unpackRow<R extends Partial<Record<Packed, unknown>>>(row: R): R {
  let out: R | undefined;
  for (const column of PACKED) {
    const value = row[column];
    if (value instanceof Uint8Array) {
      out ??= { ...row };
      (out as Record<string, unknown>)[column] = unpackText(value);
    }
  }
  return out ?? row;
}
