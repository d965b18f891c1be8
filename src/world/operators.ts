/**
 * What the condition operators mean, in one place: the engine evaluates
 * conditions with these (src/engine/check.ts) and lint decides what can never
 * hold with the same functions (src/world/lint/conditions.ts), so the two
 * cannot disagree. This file imports nothing: check.ts is bundled into the
 * script isolate together with it.
 *
 * Each comparison answers null when it cannot decide: an operator it does not
 * know, or a regex that does not compile. The engine reads null as "fails",
 * lint as "may hold".
 */

export function compareNumbers(operator: string, actual: number, expected: number): boolean | null {
  switch (operator) {
    case "equals":
      return actual === expected;
    case "notEquals":
      return actual !== expected;
    case "greaterThan":
      return actual > expected;
    case "lessThan":
      return actual < expected;
    case "greaterThanOrEqual":
      return actual >= expected;
    case "lessThanOrEqual":
      return actual <= expected;
    default:
      return null;
  }
}

/** equals/notEquals exact; contains/notContains ignore case; regex as compilePattern reads it. */
export function compareText(operator: string, expected: string, actual: string): boolean | null {
  switch (operator) {
    case "equals":
      return actual === expected;
    case "notEquals":
      return actual !== expected;
    case "contains":
      return actual.toLowerCase().includes(expected.toLowerCase());
    case "notContains":
      return !actual.toLowerCase().includes(expected.toLowerCase());
    case "regex": {
      const pattern = compilePattern(expected);
      if (pattern === null) return null;
      pattern.lastIndex = 0;
      return pattern.test(actual);
    }
    default:
      return null;
  }
}

/** equals/notEquals, exactly (booleans, statuses). */
export function compareEquality(operator: string, actual: unknown, expected: unknown): boolean | null {
  switch (operator) {
    case "equals":
      return actual === expected;
    case "notEquals":
      return actual !== expected;
    default:
      return null;
  }
}

/** contains/notContains, given whether the list holds the element. */
export function compareMembership(operator: string, found: boolean): boolean | null {
  switch (operator) {
    case "contains":
      return found;
    case "notContains":
      return !found;
    default:
      return null;
  }
}

const patterns = new Map<string, RegExp | null>();

/**
 * Compiles (and caches) a condition's pattern: a `/source/flags` literal or a
 * bare source; the g and y flags are dropped so that a test never depends on
 * an earlier one. Null when it does not compile.
 */
export function compilePattern(source: string): RegExp | null {
  const cached = patterns.get(source);
  if (cached !== undefined) return cached;
  let compiled: RegExp | null;
  try {
    const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
    compiled = literal
      ? new RegExp(literal[1]!, literal[2]!.replace("g", "").replace("y", ""))
      : new RegExp(source);
  } catch {
    compiled = null;
  }
  if (patterns.size > 1000) patterns.clear();
  patterns.set(source, compiled);
  return compiled;
}
