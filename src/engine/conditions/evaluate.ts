import { compareNumbers, compareText, NO_REGEX, type RegexMatcher } from "../../world/operators.ts";
import { EVENT_STATUSES, QUEST_STATUSES } from "../../world/schema/condition-table.ts";
import type { CheckSnapshot } from "../ports.ts";
import { CONDITIONS } from "./index.ts";
import { type Fields, isObject, type ValueKind } from "./spec.ts";

/**
 * Pure evaluation of the mechanical conditions of spec 2.2 and of the script
 * `check()` of spec 4, over a CheckSnapshot and the storage object.
 *
 * This module is bundled with esbuild and run inside the script isolate, so it
 * is self-contained: type-only imports, no zod, no clock, no randomness. What
 * each condition type is (fields, operators, value kind, how its value is
 * read) lives in its own module, src/engine/conditions/<type>.ts, listed in
 * CONDITIONS (index.ts); the fields, operators and value kind come from
 * `CONDITION_TYPES` of src/world/schema/condition-table.ts.
 *
 * Text operators (party-*, story-text, action-text, read-string):
 * - `equals` / `notEquals` compare exactly (case-sensitive);
 * - `contains` / `notContains` ignore case, because story text is written by
 *   an AI whose capitalisation cannot be predicted;
 * - `regex` compiles the value as a pattern without flags, or as a
 *   `/pattern/flags` literal, and matches it with the RegexMatcher the host
 *   passes: `matchPattern` of src/world/pattern.ts, RE2 in linear time (kept
 *   out of this module so that the isolate's bundle stays small). A pattern
 *   that does not compile never matches.
 */

/** Per condition type: required string fields, operators, value kind (spec 2.2): the registry, by its old name. */
export const CHECK_TYPES: Readonly<Record<string, (typeof CONDITIONS)[keyof typeof CONDITIONS]>> = CONDITIONS;

/** Conditions judged by the AI; mechanical evaluation never decides them. */
export function isJudgedType(type: unknown): boolean {
  return type === "story" || type === "action";
}

/** The condition kinds that pass when ANY party member matches (spec 2.2). */
export const PER_CHARACTER_TYPES = ["player-level", "player-resource", "player-traits"];

export interface ConditionResult {
  passed: boolean;
  /** What the state held: a number, a string, a map by character name, an array. */
  actual: unknown;
  expected: unknown;
  /** Why the condition could not be evaluated (malformed, AI-judged, bad pattern). */
  error?: string;
  /** A regex value that does not compile; the engine logs it once per session. */
  badPattern?: string;
}

/**
 * Evaluates one condition for the engine's trace. Never throws: a malformed
 * condition fails with an `error` that says why.
 */
export function evaluateCondition(
  condition: unknown,
  snapshot: CheckSnapshot,
  storage: Fields,
  regex: RegexMatcher = NO_REGEX,
  /** The caller knows the condition is well formed and frozen (isTrustedCondition): its check is skipped. */
  trusted = false,
): ConditionResult {
  const problem = trusted ? null : malformation(condition, true);
  const fields = (isObject(condition) ? condition : {}) as Fields;
  if (problem) return { passed: false, actual: undefined, expected: fields.value, error: problem };
  const type = fields.type as string;
  if (isJudgedType(type)) {
    return {
      passed: false,
      actual: undefined,
      expected: fields.query,
      error: "judged by the AI, not mechanically",
    };
  }
  const actual = rawValue(fields, snapshot, storage);
  const operator = fields.operator as string;
  const expected = fields.value;
  if (operator === "regex") {
    if (regex(expected as string, "") === null) {
      return {
        passed: false,
        actual,
        expected,
        error: `the pattern ${JSON.stringify(expected)} does not compile`,
        badPattern: expected as string,
      };
    }
  }
  return { passed: passes(type, operator, expected, actual, regex), actual, expected };
}

/**
 * evaluateCondition for a trusted condition (isTrustedCondition) whose operator is not `regex`:
 * the same `actual` and `passed`, without a result object (the engine's hot path, once per
 * condition of every armed trigger in every phase). `expected` is the condition's `value`.
 */
export function readTrusted(condition: Fields, snapshot: CheckSnapshot, storage: Fields): unknown {
  return rawValue(condition, snapshot, storage);
}

/** Whether a trusted, non-regex condition passes for the `actual` readTrusted gave. */
export function passesTrusted(condition: Fields, actual: unknown): boolean {
  return passes(condition.type as string, condition.operator as string, condition.value, actual);
}

/**
 * The script `check()` of spec 4. Without `operator`: the raw value (maps keyed
 * by character name, story text as a string, actions as an array, read-*
 * fallbacks). With `operator`: true or false, ANY character for the
 * per-character types. The `regex` operator and malformed conditions give
 * undefined.
 */
export function scriptCheck(condition: unknown, snapshot: CheckSnapshot, storage: Fields): unknown {
  if (!isObject(condition)) return undefined;
  const fields = condition as Fields;
  const withOperator = fields.operator !== undefined;
  if (malformation(condition, withOperator)) return undefined;
  const type = fields.type as string;
  const actual = rawValue(fields, snapshot, storage);
  if (!withOperator) return copy(actual);
  if (fields.operator === "regex") return undefined;
  return passes(type, fields.operator as string, fields.value, actual);
}

/**
 * The names of the party members for which a per-character condition holds
 * (player-level, player-resource, player-traits): the ANY of spec 2.2, spelled
 * out, for `scope: "player"` targets. Empty for other or malformed conditions.
 */
export function matchingCharacters(condition: unknown, snapshot: CheckSnapshot): string[] {
  if (malformation(condition, true)) return [];
  const fields = condition as Fields;
  const type = fields.type as string;
  if (!PER_CHARACTER_TYPES.includes(type)) return [];
  const byName = rawValue(fields, snapshot, {}) as Record<string, unknown>;
  return Object.keys(byName).filter((name) =>
    passesOne(type, fields.operator as string, fields.value, byName[name]),
  );
}

/** Whether an action text satisfies an `action-text` condition (one player's action alone). */
export function actionMatches(condition: unknown, text: string, regex: RegexMatcher = NO_REGEX): boolean {
  if (malformation(condition, true)) return false;
  const fields = condition as Fields;
  if (fields.type !== "action-text") return false;
  return compareText(fields.operator as string, fields.value as string, text, regex) === true;
}

// ---------------------------------------------------------------------------

/** Conditions already found well-formed (with an operator); trigger conditions are never changed once made. */
const wellFormed = new WeakSet<object>();

/**
 * A frozen, well-formed condition (with its operator): evaluateCondition's
 * check of its form always passes, so a caller that keeps this answer per
 * condition can pass `trusted` instead of asking again on every evaluation.
 */
export function isTrustedCondition(condition: unknown): boolean {
  return malformation(condition, true) === null && Object.isFrozen(condition);
}

/** Why a condition cannot be evaluated, or null when it is well-formed. */
function malformation(condition: unknown, needOperator: boolean): string | null {
  if (!isObject(condition)) return "a condition must be an object";
  if (needOperator && wellFormed.has(condition as object)) return null;
  const problem = findMalformation(condition as Fields, needOperator);
  if (problem === null && needOperator && Object.isFrozen(condition)) wellFormed.add(condition as object);
  return problem;
}

function findMalformation(condition: Fields, needOperator: boolean): string | null {
  const fields = condition as Fields;
  const spec = typeof fields.type === "string" ? CHECK_TYPES[fields.type] : undefined;
  if (!spec || !Object.hasOwn(CHECK_TYPES, fields.type as string)) {
    return `unknown condition type ${JSON.stringify(fields.type)}`;
  }
  for (const field of spec.fields) {
    if (typeof fields[field] !== "string") return `"${field}" must be a string`;
  }
  if (spec.value === "none") return fields.operator === undefined ? null : "this type takes no operator";
  if (!needOperator) return null;
  if (typeof fields.operator !== "string" || !spec.operators.includes(fields.operator)) {
    return `operator ${JSON.stringify(fields.operator)} is not one of ${spec.operators.join(", ")}`;
  }
  if (!valueFits(spec.value, fields.value)) return `value ${JSON.stringify(fields.value)} has the wrong type`;
  return null;
}

function valueFits(kind: ValueKind, value: unknown): boolean {
  switch (kind) {
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "scalar":
      return typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
    case "questStatus":
      return (QUEST_STATUSES as readonly string[]).includes(value as string);
    case "eventStatus":
      return (EVENT_STATUSES as readonly string[]).includes(value as string);
    case "none":
      return value === undefined;
  }
}

/** The raw value of spec 4's table for a well-formed condition: its type's `read`. */
function rawValue(fields: Fields, snapshot: CheckSnapshot, storage: Fields): unknown {
  return Object.hasOwn(CONDITIONS, fields.type as string)
    ? CONDITIONS[fields.type as keyof typeof CONDITIONS].read(fields, snapshot, storage)
    : undefined;
}

/** `regex` is given only by host-side callers: scripts never match patterns (see operators.ts). */
function passes(
  type: string,
  operator: string,
  expected: unknown,
  actual: unknown,
  regex?: RegexMatcher,
): boolean {
  // Loops, not some() over Object.keys: this runs for every condition of every armed trigger.
  if (type === "player-level" || type === "player-resource" || type === "player-traits") {
    const byName = actual as Record<string, unknown>;
    for (const name in byName) {
      if (Object.hasOwn(byName, name) && passesOne(type, operator, expected, byName[name])) return true;
    }
    return false;
  }
  if (type === "action-text") {
    // Each player's action is tested on its own; the condition holds when any one satisfies it.
    for (const text of actual as string[])
      if (compareText(operator, expected as string, text, regex) === true) return true;
    return false;
  }
  if (type === "quests-completed" || type === "read-array")
    return membership(operator, actual as unknown[], expected);
  if (typeof actual === "number") return compareNumbers(operator, actual, expected as number) === true;
  if (typeof actual === "string") return compareText(operator, expected as string, actual, regex) === true;
  if (operator === "equals") return actual === expected;
  if (operator === "notEquals") return actual !== expected;
  return false;
}

function passesOne(type: string, operator: string, expected: unknown, value: unknown): boolean {
  if (type === "player-traits") return membership(operator, value as string[], String(expected));
  return typeof value === "number" && compareNumbers(operator, value, expected as number) === true;
}

function membership(operator: string, list: readonly unknown[], element: unknown): boolean {
  const found = list.includes(element);
  return operator === "contains" ? found : operator === "notContains" ? !found : false;
}

/** Scripts get their own copy, so that mutating a returned map cannot change the snapshot. */
function copy(value: unknown): unknown {
  return value !== null && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : value;
}
