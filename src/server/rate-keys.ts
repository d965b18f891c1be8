import type { FastifyRequest } from "fastify";
import { bearer, hashToken } from "./auth.ts";
import type { Store } from "./store/store.ts";

/**
 * What a request's rate limit is counted on: its token, when the token belongs
 * to a game, or else the client's address. A token is only a string the client
 * chose until it is checked: counting on every well-formed token let a client
 * send each request with a new made-up one and never reach a limit (nor the
 * per-address one), and churn the limiter's table until real clients' counts
 * were dropped from it. The tokens met are remembered (a bounded table), so a
 * real token is looked up once per process.
 */
export class KnownTokens {
  private readonly hashes = new Map<string, true>();
  constructor(private readonly max = 100_000) {}

  /** A token hash found in the store (the newest are kept; the oldest go first). */
  add(hash: string): void {
    if (this.hashes.has(hash)) this.hashes.delete(hash);
    this.hashes.set(hash, true);
    if (this.hashes.size > this.max) {
      const oldest = this.hashes.keys().next().value;
      if (oldest !== undefined) this.hashes.delete(oldest);
    }
  }

  has(hash: string): boolean {
    return this.hashes.has(hash);
  }
}

/** One table per server (its store). */
const TABLES = new WeakMap<Store, KnownTokens>();

export function knownTokens(store: Store): KnownTokens {
  let table = TABLES.get(store);
  if (!table) {
    table = new KnownTokens();
    TABLES.set(store, table);
  }
  return table;
}

export interface RateKey {
  key: string;
  per: "token" | "address";
}

/**
 * The rate-limit key of a request: `t:<token hash>` for a token of a game,
 * `a:<address>` otherwise. A token this process has not met yet is looked up
 * once (a player's first request after joining, a token issued by another
 * process); a made-up one is looked up each time and counts on the address.
 */
export async function rateKey(store: Store, request: FastifyRequest): Promise<RateKey> {
  const token = bearer(request.headers.authorization);
  if (token !== undefined && (token.startsWith("tfh_") || token.startsWith("tfp_"))) {
    const hash = hashToken(token);
    const known = knownTokens(store);
    if (known.has(hash) || (await issued(store, token, hash))) {
      known.add(hash);
      return { key: `t:${hash}`, per: "token" };
    }
  }
  return { key: `a:${request.ip}`, per: "address" };
}

async function issued(store: Store, token: string, hash: string): Promise<boolean> {
  try {
    return token.startsWith("tfh_")
      ? (await store.gameByHostToken(hash)) !== undefined
      : (await store.playerByToken(hash)) !== undefined;
  } catch {
    // The store does not answer: count on the address; the route itself answers server/unavailable.
    return false;
  }
}

/**
 * Counts per key in one-minute windows (a window starts at a key's first count). Bounded: past
 * `maxKeys` keys the oldest windows are dropped, as the rate limiter's own table does.
 */
export class MinuteWindows {
  private readonly windows = new Map<string, { count: number; until: number }>();
  constructor(
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  private window(key: string, now: number) {
    let window = this.windows.get(key);
    if (!window || window.until <= now) {
      this.windows.delete(key);
      window = { count: 0, until: now + this.windowMs };
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    return window;
  }

  /** Whether `key` is still under `max` in its window, and in how many seconds the window ends. */
  peek(key: string, max: number, now = Date.now()): { ok: boolean; retryAfterSeconds: number } {
    const window = this.window(key, now);
    return { ok: window.count < max, retryAfterSeconds: Math.max(1, Math.ceil((window.until - now) / 1000)) };
  }

  /** Counts one for `key`. */
  add(key: string, now = Date.now()): void {
    this.window(key, now).count++;
  }

  /** Counts one for `key` when it is under `max`; answers as `peek` did before counting. */
  take(key: string, max: number, now = Date.now()): { ok: boolean; retryAfterSeconds: number } {
    const seen = this.peek(key, max, now);
    if (seen.ok) this.add(key, now);
    return seen;
  }
}
