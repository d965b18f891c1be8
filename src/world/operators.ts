/**
 * What the condition operators mean, in one place: the engine evaluates
 * conditions with these (src/engine/conditions/) and lint decides what can never
 * hold with the same functions (src/world/lint/conditions.ts), so the two
 * cannot disagree. This file imports nothing: the conditions are bundled into the
 * script isolate together with it.
 *
 * Each comparison answers null when it cannot decide: an operator it does not
 * know, or a regex that does not compile. The engine reads null as "fails",
 * lint as "may hold".
 *
 * The `regex` operator is matched by the function the caller passes
 * (`matchPattern` of src/world/pattern.ts, RE2): the script isolate never
 * matches patterns (spec 4: `check()` answers undefined for them), so the RE2
 * engine is kept out of its bundle by not importing it here.
 */

/** Matches a pattern (a condition's value) against text; null when the pattern does not compile. */
export type RegexMatcher = (pattern: string, text: string) => boolean | null;

/** For callers that never match patterns (the script isolate): every pattern fails. */
export const NO_REGEX: RegexMatcher = () => null;

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

/** equals/notEquals exact; contains/notContains ignore case; regex through `regex` (see above). */
export function compareText(
  operator: string,
  expected: string,
  actual: string,
  regex: RegexMatcher = NO_REGEX,
): boolean | null {
  switch (operator) {
    case "equals":
      return actual === expected;
    case "notEquals":
      return actual !== expected;
    case "contains":
      return actual.toLowerCase().includes(expected.toLowerCase());
    case "notContains":
      return !actual.toLowerCase().includes(expected.toLowerCase());
    case "regex":
      return regex(expected, actual);
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
