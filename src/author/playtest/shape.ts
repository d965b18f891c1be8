import type { z } from "zod";
import { formatPath, type JsonPath } from "../../world/diagnostic.ts";
import { didYouMean } from "../../world/suggest.ts";
import { describeValue, isPlainObject, valueAt } from "../../world/values.ts";
import { type Locate, type Problem, problemAt } from "./problem.ts";
import { PlaytestFile } from "./schema.ts";

/**
 * Checks a parsed play-test against the format: unknown keys (with "did you
 * mean"), `__proto__` keys, types and allowed values, and plain JSON data in
 * `storage`. Returns the typed file only when there is no problem.
 */
export function checkShape(value: unknown, locate: Locate): { spec?: PlaytestFile; problems: Problem[] } {
  const problems: Problem[] = [];
  if (!isPlainObject(value)) {
    problems.push(
      problemAt(locate, "playtest/wrong-type", [], "not-mapping", { actual: describeValue(value) }),
    );
    return { problems };
  }
  findOddKeys(value, [], locate, problems);
  findUnknownKeys(PlaytestFile, value, [], locate, problems);
  const parsed = PlaytestFile.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(...fromIssue(issue, value, locate));
  }
  for (const path of storagePaths(value)) checkJsonData(valueAt(value, path), path, locate, problems);
  if (problems.length > 0 || !parsed.success) return { problems: dedupe(problems) };
  return { spec: parsed.data, problems };
}

/** `__proto__` keys anywhere: zod skips them, and they must not reach the engine. */
function findOddKeys(value: unknown, path: JsonPath, locate: Locate, problems: Problem[]): void {
  if (Array.isArray(value)) {
    value.forEach((child, i) => {
      findOddKeys(child, [...path, i], locate, problems);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === "__proto__") {
      problems.push(problemAt(locate, "playtest/unknown-key", [...path, key], "proto", {}, true));
      continue;
    }
    findOddKeys(child, [...path, key], locate, problems);
  }
}

/** Keys the format does not define, walking the value beside the schema. */
export function findUnknownKeys(
  schema: z.ZodType,
  value: unknown,
  path: JsonPath,
  locate: Locate,
  problems: Problem[],
): void {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      findUnknownKeys(def.innerType as z.ZodType, value, path, locate, problems);
      return;
    case "object": {
      if (!isPlainObject(value)) return;
      const shape = def.shape as Record<string, z.ZodType>;
      for (const [key, child] of Object.entries(value)) {
        if (key === "__proto__") continue;
        const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
        if (field) findUnknownKeys(field, child, [...path, key], locate, problems);
        else {
          const where = path.length ? `\`${formatPath(path)}\`` : "a play-test file";
          problems.push(
            problemAt(
              locate,
              "playtest/unknown-key",
              [...path, key],
              "unknown",
              {
                key,
                where,
                suggestion: didYouMean(key, Object.keys(shape)),
                known: Object.keys(shape).join(", "),
              },
              true,
            ),
          );
        }
      }
      return;
    }
    case "record":
      if (!isPlainObject(value)) return;
      for (const [key, child] of Object.entries(value))
        findUnknownKeys(def.valueType as z.ZodType, child, [...path, key], locate, problems);
      return;
    case "array":
      if (!Array.isArray(value)) return;
      value.forEach((child, i) => {
        findUnknownKeys(def.element as z.ZodType, child, [...path, i], locate, problems);
      });
      return;
    case "union": {
      // The object branch, for an object value (the other branches are plain values).
      if (!isPlainObject(value)) return;
      const branch = (def.options as z.ZodType[]).find((o) => o._zod.def.type === "object");
      if (branch) findUnknownKeys(branch, value, path, locate, problems);
      return;
    }
  }
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
  int: "a whole number",
};

const MISSING_HINTS: Record<string, string> = {
  world: " Name the world file, relative to this play-test: `world: ../my.world.json`.",
  turns: " Add the steps to play: `turns: [{act: ...}]`.",
  player: " Name the acting player.",
  act: " Give the player's action text.",
};

function fromIssue(issue: z.core.$ZodIssue, root: unknown, locate: Locate): Problem[] {
  if (issue.code === "invalid_union") return unionProblems(issue, root, locate);
  return [oneProblem(issue, root, locate)];
}

function oneProblem(issue: z.core.$ZodIssue, root: unknown, locate: Locate): Problem {
  const path = issue.path as JsonPath;
  const actual = valueAt(root, path);
  const field = path.length > 0 ? `\`${formatPath(path)}\`` : "The file";
  const last = String(path[path.length - 1] ?? "");
  if (actual === undefined && issue.code === "invalid_type") {
    const parent = path.length > 1 ? `\`${formatPath(path.slice(0, -1))}\`` : "the file";
    return problemAt(locate, "playtest/missing-key", path, "missing", {
      key: last,
      parent,
      hint: MISSING_HINTS[last] ?? "",
    });
  }
  switch (issue.code) {
    case "invalid_type":
      return problemAt(locate, "playtest/wrong-type", path, "type", {
        field,
        expected: EXPECTED[issue.expected] ?? issue.expected,
        actual: describeValue(actual),
      });
    case "invalid_value": {
      const values = issue.values.map(String);
      const suggestion = typeof actual === "string" ? didYouMean(actual, values) : "";
      return problemAt(locate, "playtest/invalid-value", path, "one-of", {
        field,
        actual: describeValue(actual),
        suggestion,
        values: values.join(", "),
      });
    }
    case "too_small":
    case "too_big":
    case "invalid_format":
      return problemAt(locate, "playtest/invalid-value", path, "bounds", { field, issue: issue.message });
    default:
      return problemAt(locate, "playtest/invalid-value", path, "other", { field, issue: issue.message });
  }
}

/** A union of a plain value and a mapping (a quest's status, a resource's value). */
function unionProblems(issue: z.core.$ZodIssueInvalidUnion, root: unknown, locate: Locate): Problem[] {
  const path = issue.path as JsonPath;
  const actual = valueAt(root, path);
  const field = `\`${formatPath(path)}\``;
  const branches = issue.errors.flat();
  if (actual === undefined) return [oneProblem({ ...branches[0]!, path } as z.core.$ZodIssue, root, locate)];
  const values = branches.flatMap((i) => (i.code === "invalid_value" ? i.values.map(String) : []));
  if (typeof actual === "string" && values.length > 0) {
    return [
      problemAt(locate, "playtest/invalid-value", path, "one-of", {
        field,
        actual: describeValue(actual),
        suggestion: didYouMean(actual, values),
        values: values.join(", "),
      }),
    ];
  }
  // A mapping that fails inside: report what is wrong in it, at its own keys.
  const inside = branches.filter((i) => i.path.length > 0);
  if (isPlainObject(actual) && inside.length > 0)
    return inside.flatMap((i) =>
      fromIssue({ ...i, path: [...path, ...(i.path as JsonPath)] } as z.core.$ZodIssue, root, locate),
    );
  const expected = [
    ...new Set(
      branches.map((i) => (i.code === "invalid_type" ? EXPECTED[i.expected] : undefined)).filter(Boolean),
    ),
  ];
  if (values.length > 0) expected.unshift(`one of ${values.join(", ")}`);
  return [
    problemAt(locate, "playtest/wrong-type", path, "type", {
      field,
      expected: expected.join(" or ") || "another type",
      actual: describeValue(actual),
    }),
  ];
}

/** The `storage` mappings of a file: `given.storage`, and each step's `expect.storage`. */
function storagePaths(root: Record<string, unknown>): JsonPath[] {
  const out: JsonPath[] = [];
  const fromTest = (test: unknown, prefix: JsonPath) => {
    if (!isPlainObject(test)) return;
    if (isPlainObject(test.given) && test.given.storage !== undefined)
      out.push([...prefix, "given", "storage"]);
    if (!Array.isArray(test.turns)) return;
    test.turns.forEach((step, i) => {
      if (isPlainObject(step) && isPlainObject(step.expect) && step.expect.storage !== undefined)
        out.push([...prefix, "turns", i, "expect", "storage"]);
    });
  };
  fromTest(root, []);
  if (Array.isArray(root.tests))
    root.tests.forEach((t, i) => {
      fromTest(t, ["tests", i]);
    });
  return out;
}

/** Storage holds JSON: finite numbers, strings, booleans, null, lists and mappings. */
function checkJsonData(value: unknown, path: JsonPath, locate: Locate, problems: Problem[]): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      problems.push(
        problemAt(locate, "playtest/invalid-value", path, "not-finite", {
          path: formatPath(path),
          actual: String(value),
        }),
      );
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((child, i) => {
      checkJsonData(child, [...path, i], locate, problems);
    });
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) checkJsonData(child, [...path, key], locate, problems);
    return;
  }
  problems.push(
    problemAt(locate, "playtest/wrong-type", path, "not-json", {
      path: formatPath(path),
      actual: typeof value,
    }),
  );
}

/** One problem per position and code: zod may report a path twice through a union. */
function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.code}|${JSON.stringify(p.path)}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
