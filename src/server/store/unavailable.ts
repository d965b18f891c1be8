/**
 * Whether an error means the store could not be reached or was busy (a
 * PostgreSQL server restarting or terminating our connections, SQLite's file
 * locked by another writer past the busy timeout), as opposed to a bug. Such
 * a failure commits nothing, so the request can simply be retried: the API
 * answers `server/unavailable` (503), not `server/internal`.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== "object") return false;
  const code = typeof e.code === "string" ? e.code : "";
  // PostgreSQL: connection exceptions (class 08), shutdown or crash (57P01-57P03), too many connections.
  if (/^08|^57P0[123]$|^53300$/.test(code)) return true;
  if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"].includes(code)) return true;
  if (/^SQLITE_(BUSY|LOCKED|IOERR)/.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i.test(
    message,
  );
}
