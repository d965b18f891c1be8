import type { z } from "zod";

/**
 * What is wrong with a request's body, path or query, in plain words: zod's
 * own wording ("Invalid input: expected number, received NaN", "Too small:
 * expected string to have >=1 characters") is for programmers of zod, not for
 * someone pasting a curl command or reading why a save does not load. The
 * server's route.ts passes `plainIssue` to every parse of a request as its
 * error map (a schema's own message, such as a refinement's, still wins) and
 * `plainIssues` turns the result into the answer's issues; the engine's save
 * reader uses the same words for a damaged state.
 */

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue & { input?: unknown };

/** What a JSON value of zod's `expected` type is called. */
function kind(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "int":
      return "a whole number";
    case "boolean":
      return "true or false";
    case "object":
      return "a JSON object {...}";
    case "array":
      return "a list [...]";
    case "record":
      return "a JSON object {...}";
    case "null":
      return "null";
    default:
      return `a ${expected}`;
  }
}

/** What was sent instead, named by its JSON type (its content is not echoed). */
function kindOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "number") return "a number";
  if (typeof input === "string") return "a string";
  if (typeof input === "boolean") return input ? "true" : "false";
  if (typeof input === "object") return "a JSON object";
  return typeof input;
}

/** `"a", "b" or "c"`. */
function oneOf(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** Zod's error map for the API's requests: undefined leaves zod's own message (a case not met here). */
export function plainIssue(iss: RawIssue): string | undefined {
  switch (iss.code) {
    case "invalid_type":
      if (iss.input === undefined) return `is missing; it must be ${kind(iss.expected)}`;
      // A query value read as a number (z.coerce) that is not one: the caller sees what they sent (server/route.ts).
      if (typeof iss.input === "number" && Number.isNaN(iss.input)) return `must be ${kind(iss.expected)}`;
      if (iss.expected === "int" && typeof iss.input === "number")
        return `must be a whole number, not ${iss.input}`;
      return `must be ${kind(iss.expected)}, not ${kindOf(iss.input)}`;
    case "too_small": {
      const min = Number(iss.minimum);
      if (iss.origin === "number")
        return iss.inclusive === false ? `must be more than ${min}` : `must be ${min} or more`;
      if (iss.origin === "string")
        return min <= 1 ? "must not be empty" : `must be at least ${min} characters long`;
      if (iss.origin === "array") return `must hold at least ${min} item${min === 1 ? "" : "s"}`;
      return undefined;
    }
    case "too_big": {
      const max = Number(iss.maximum);
      if (iss.origin === "number")
        return iss.inclusive === false ? `must be less than ${max}` : `must be ${max} or less`;
      if (iss.origin === "string") return `must be at most ${max} characters long`;
      if (iss.origin === "array") return `must hold at most ${max} item${max === 1 ? "" : "s"}`;
      return undefined;
    }
    case "unrecognized_keys":
      return iss.keys.length === 1
        ? `has a field this route does not take, ${oneOf(iss.keys)}: remove it`
        : `has fields this route does not take, ${iss.keys.map((k) => JSON.stringify(k)).join(", ")}: remove them`;
    case "invalid_value":
      return iss.values.length === 1 ? `must be ${oneOf(iss.values)}` : `must be one of ${oneOf(iss.values)}`;
    case "invalid_format":
      return iss.format === "regex" ? "is not in the form this route takes" : `must be a valid ${iss.format}`;
    case "invalid_union":
      return "matches none of the forms this route takes";
    default:
      return undefined;
  }
}

/** An issue as the answer's `details.issues` lists it. */
export interface PlainIssue {
  path: string[];
  message: string;
}

/**
 * The issues of a failed parse (made with `plainIssue` and `reportInput`), as
 * the answer lists them. A union that no branch matched (a character is a
 * premade or a new one) is reported by the branch the request came closest
 * to (the fewest missing or unknown fields): `{"name": "Ann", "traits":
 * "Noble"}` is told that `traits` must be a list, not that it matches no form.
 * When two branches come as close, the union's own message says what it takes.
 */
export function plainIssues(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): PlainIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const misses = (branch: readonly Issue[]) =>
        branch.filter(
          (i) => i.code === "unrecognized_keys" || (i.code === "invalid_type" && i.input === undefined),
        ).length;
      const scored = issue.errors.map((branch) => ({
        branch: branch as Issue[],
        misses: misses(branch as Issue[]),
      }));
      const best = Math.min(...scored.map((s) => s.misses));
      const closest = scored.filter((s) => s.misses === best);
      if (closest.length === 1) return plainIssues(closest[0]!.branch, path);
    }
    return [{ path: path.map(String), message: issue.message }];
  });
}
