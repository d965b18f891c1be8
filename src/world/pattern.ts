import { RE2JS } from "re2js";

/**
 * Regular expressions of worlds and scripts (the `regex` condition operator),
 * matched by RE2 (the `re2js` port): time linear in the text, whatever the
 * pattern, so that `^(a+)+$` against 40 a's and "!" answers at once instead of
 * hanging the game (issue 15 item 3).
 *
 * A value is a bare pattern or a `/pattern/flags` literal, as before: flags
 * i (ignore case), m (multi-line) and s (dot matches newline) apply; d, g, u,
 * v and y change nothing a yes/no test can see. JavaScript syntax is read
 * through `RE2JS.translateRegExp` (`\u00e9` escapes, [^], \cX). What RE2 cannot do,
 * because it needs backtracking, does not compile: lookahead `(?=`, `(?!`,
 * lookbehind `(?<=`, `(?<!` and backreferences `\1`. Such a pattern never
 * matches (the engine logs it once per session) and `check` reports it as
 * condition/regex-pattern.
 */

export type CompiledPattern =
  | { ok: true; test(text: string): boolean }
  | { ok: false; reason: string; unsupported: boolean };

const LITERAL = /^\/(.*)\/([dgimsuvy]*)$/s;
/** JavaScript-only constructs RE2 refuses by design (they need backtracking). */
const BACKTRACKING = /\(\?<?[=!]|\\[1-9]|\\k</;
const cache = new Map<string, CompiledPattern>();
/** Patterns kept compiled; worlds hold few, scripts may make many, so the cache is emptied when full. */
const CACHE_LIMIT = 1000;

export function compileRegex(source: string): CompiledPattern {
  const cached = cache.get(source);
  if (cached !== undefined) return cached;
  const compiled = compileFresh(source);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

function compileFresh(source: string): CompiledPattern {
  const literal = LITERAL.exec(source);
  const body = literal ? literal[1]! : source;
  const flagText = literal ? literal[2]! : "";
  let flags = 0;
  if (flagText.includes("i")) flags |= RE2JS.CASE_INSENSITIVE;
  if (flagText.includes("m")) flags |= RE2JS.MULTILINE;
  if (flagText.includes("s")) flags |= RE2JS.DOTALL;
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(body), flags);
    return { ok: true, test: (text: string) => re.test(text) };
  } catch (error) {
    const reason = String((error as Error).message ?? error).replace(/^error parsing regexp: /, "");
    return { ok: false, reason, unsupported: BACKTRACKING.test(body) };
  }
}

/** Whether a pattern compiles with RE2, and if not why: what `compileRegex(source)` says of it, without its matcher. */
export type PatternCheck = { ok: true } | { ok: false; reason: string; unsupported: boolean };

const COMPILES: PatternCheck = Object.freeze({ ok: true });

/**
 * The same answer as `compileRegex(source).ok` (and its reason when not), but a
 * plain pattern is not compiled: `check` only asks whether the world's patterns
 * compile, and the first compile of a process runs most of re2js cold (about 7 M
 * instructions of a check at the caps, for one pattern).
 */
export function checkPattern(source: string): PatternCheck {
  const cached = cache.get(source);
  if (cached !== undefined) return cached;
  return isPlainPattern(source) ? COMPILES : compileRegex(source);
}

/**
 * Letters, digits, `_`, spaces, `-`, groups, `|`, `?`, `*`, `+`, `.`, `^`, `$`
 * and the escapes \b \B \d \D \w \W \s \S: no `(?`, class, count, backreference
 * or other escape. Of these, RE2 refuses only what JavaScript refuses too (an
 * unbalanced group, a quantifier with nothing to repeat, a quantifier on an
 * assertion or on another quantifier other than the lazy `?`), so such a pattern
 * that JavaScript's own parser takes compiles with RE2. Short, so its nesting
 * stays far below RE2's depth limit.
 */
const PLAIN = /^(?:[A-Za-z0-9_ |()?*+.^$-]|\\[bBdDwWsS])*$/;
const PLAIN_MAX = 256;
const plainSources = new Map<string, boolean>();

/** Whether a pattern (bare or a /pattern/flags literal) is plain (PLAIN) and JavaScript parses it: then RE2 compiles it. */
export function isPlainPattern(source: string): boolean {
  let plain = plainSources.get(source);
  if (plain === undefined) {
    const literal = LITERAL.exec(source);
    const body = literal ? literal[1]! : source;
    plain = body.length <= PLAIN_MAX && PLAIN.test(body) && parsesInJavaScript(body);
    if (plainSources.size >= CACHE_LIMIT) plainSources.clear();
    plainSources.set(source, plain);
  }
  return plain;
}

function parsesInJavaScript(body: string): boolean {
  try {
    new RegExp(body, "u");
    return true;
  } catch {
    return false;
  }
}

/** Whether the text matches; null when the pattern does not compile (the operator then fails). */
export function matchPattern(source: string, text: string): boolean | null {
  const compiled = compileRegex(source);
  return compiled.ok ? compiled.test(text) : null;
}
