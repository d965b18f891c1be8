import { createHash, randomBytes } from "node:crypto";

/**
 * Tokens: 256 random bits, base64url, with a prefix that says whose they are
 * (`tfh_` host, `tfp_` player). Only their sha256 is stored: a copy of the
 * database gives no one a working token.
 */
export function newToken(kind: "host" | "player"): string {
  return `${kind === "host" ? "tfh_" : "tfp_"}${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** An id for rows (games, players, submissions): 128 random bits. */
export function newId(): string {
  return randomBytes(16).toString("hex");
}

const INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** An invite code people can read out: 12 characters (60 bits), no 0/O or 1/I. */
export function newInviteCode(): string {
  const bytes = randomBytes(12);
  let code = "";
  for (const byte of bytes) code += INVITE_ALPHABET[byte % INVITE_ALPHABET.length];
  return code;
}

/** The bearer token of an Authorization header, or undefined. The scheme's case does not matter (RFC 9110). */
export function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9_-]{1,200})\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Why an Authorization header holds no token `bearer` reads: no header, another scheme (Basic), `Bearer`
 * with nothing after it (a shell variable that was empty), or something that cannot be a token (quotes,
 * spaces, too long). The message of the refusal says which.
 */
export function missingToken(
  header: string | undefined,
): "no-header" | "other-scheme" | "empty" | "malformed" {
  if (header === undefined || header.trim() === "") return "no-header";
  if (!/^Bearer(\s|$)/i.test(header)) return "other-scheme";
  if (header.trim().length <= "Bearer".length) return "empty";
  return "malformed";
}
