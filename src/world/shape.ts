import type { z } from "zod";
import {
  SHAPE_INVALID_VALUE,
  SHAPE_MISSING_FIELD,
  SHAPE_PROTO_KEY,
  SHAPE_UNKNOWN_FIELD,
  SHAPE_WRONG_TYPE,
} from "./codes.ts";
import { formatPath, type JsonPath } from "./diagnostic.ts";
import { missingFieldHint } from "./missing-hint.ts";
import type { CodeInfo, Report } from "./rule.ts";
import { MAP_SECTIONS, recordSchema, SECTIONS, type SectionName } from "./schema/world.ts";
import { didYouMean } from "./suggest.ts";
import { describeValue, isPlainObject, valueAt } from "./values.ts";

export type Reporter = (info: CodeInfo, report: Report) => void;

export interface ShapeResult {
  /** Sections (and records of keyed maps) that passed, as written. */
  valid: Record<string, unknown>;
  validSections: Set<SectionName>;
}

const MAPS = new Set<string>(MAP_SECTIONS);

/**
 * Checks every section on its own, and each record of a keyed map on its own,
 * so that one broken record neither hides the others nor keeps the rules from
 * seeing the rest of the world.
 */
export function checkShape(root: Record<string, unknown>, report: Reporter): ShapeResult {
  const valid: Record<string, unknown> = {};
  const validSections = new Set<SectionName>();
  if (Object.hasOwn(root, "__proto__")) reportProtoKeys(root, [], report, false);
  for (const [name, schema] of Object.entries(SECTIONS) as [SectionName, z.ZodType][]) {
    const value = root[name];
    if (value === undefined) {
      if (!schema.safeParse(undefined).success && !(name === "heroesVersion" && hasOtherVersionField(root))) {
        report(SHAPE_MISSING_FIELD, {
          path: [name],
          messageId: "missing",
          data: { field: name, parent: "the top level", hint: missingFieldHint([name]) },
        });
      }
      if (schema.safeParse(undefined).success) validSections.add(name);
      continue;
    }
    if (MAPS.has(name)) {
      const kept = checkMap(name, value, report);
      if (kept) {
        valid[name] = kept.records;
        if (kept.allValid) validSections.add(name);
      }
      continue;
    }
    if (reportProtoKeys(value, [name], report)) continue;
    const result = schema.safeParse(value);
    if (result.success) {
      valid[name] = value;
      validSections.add(name);
    } else reportIssues(result.error.issues, [name], root, report);
  }
  return { valid, validSections };
}

/**
 * Reports every `__proto__` key under a value and says whether there was one.
 * zod skips such keys, so a record holding one is kept out of the checked
 * world rather than letting unchecked data reach the rules. Depth is bounded
 * by the loader's nesting limit.
 */
function reportProtoKeys(value: unknown, path: JsonPath, report: Reporter, deep = true): boolean {
  if (value === null || typeof value !== "object") return false;
  let found = false;
  if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) {
    found = true;
    report(SHAPE_PROTO_KEY, {
      path: [...path, "__proto__"],
      atKey: true,
      messageId: "proto",
      data: { parent: path.length ? formatPath(path) : "the top level" },
    });
  }
  if (deep) {
    for (const [key, child] of Object.entries(value)) {
      if (
        key !== "__proto__" &&
        reportProtoKeys(child, [...path, Array.isArray(value) ? Number(key) : key], report)
      )
        found = true;
    }
  }
  return found;
}

function hasOtherVersionField(root: Record<string, unknown>): boolean {
  return Object.keys(root).some((k) => /Version$/.test(k) && k !== "configVersion" && k !== "heroesVersion");
}

function checkMap(name: SectionName, value: unknown, report: Reporter) {
  if (!isPlainObject(value)) {
    report(SHAPE_WRONG_TYPE, {
      path: [name],
      messageId: "type",
      data: { field: name, expected: "an object keyed by name", actual: describeValue(value) },
    });
    return undefined;
  }
  const schema = recordSchema(name);
  const records: Record<string, unknown> = {};
  let allValid = true;
  for (const [key, record] of Object.entries(value)) {
    if (reportProtoKeys(record, [name, key], report)) {
      allValid = false;
      continue;
    }
    const result = schema!.safeParse(record);
    if (result.success) records[key] = record;
    else {
      allValid = false;
      reportIssues(result.error.issues, [name, key], { [name]: value }, report);
    }
  }
  return { records, allValid };
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  record: "an object",
  null: "null",
};

function reportIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: JsonPath,
  root: unknown,
  report: Reporter,
) {
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as JsonPath)];
    const actual = valueAt(root, path);
    const field = String(path[path.length - 1]);
    const parentPath = path.slice(0, -1);
    const parent = parentPath.length ? formatPath(parentPath) : "the top level";
    if (issue.code === "invalid_union" && issue.errors.length > 0 && !("discriminator" in issue)) {
      // A union of plain types (string | number | boolean): say which types are allowed.
      const expected = [
        ...new Set(
          issue.errors.flat().map((i) => (i.code === "invalid_type" ? EXPECTED[i.expected] : undefined)),
        ),
      ]
        .filter(Boolean)
        .join(" or ");
      if (actual === undefined)
        report(SHAPE_MISSING_FIELD, {
          path,
          messageId: "missing",
          data: { field, parent, hint: missingFieldHint(path, root) },
        });
      else
        report(SHAPE_WRONG_TYPE, {
          path,
          messageId: "type",
          data: { field, expected: expected || "another type", actual: describeValue(actual) },
        });
      continue;
    }
    if (
      actual === undefined &&
      (issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value")
    ) {
      const hint = missingFieldHint(path, root);
      report(SHAPE_MISSING_FIELD, { path, messageId: "missing", data: { field, parent, hint } });
      continue;
    }
    switch (issue.code) {
      case "invalid_type":
        report(SHAPE_WRONG_TYPE, {
          path,
          messageId: "type",
          data: {
            field,
            expected: EXPECTED[issue.expected] ?? issue.expected,
            actual: describeValue(actual),
          },
        });
        break;
      case "invalid_value":
      case "invalid_union": {
        const values = (
          issue.code === "invalid_value" ? issue.values : ((issue as { options?: unknown[] }).options ?? [])
        ).map(String);
        report(SHAPE_INVALID_VALUE, {
          path,
          messageId: "value",
          data: {
            field,
            actual: describeValue(actual),
            expected: values.map((v) => JSON.stringify(v)).join(" | ") || "another value",
            suggestion: typeof actual === "string" ? didYouMean(actual, values) : "",
          },
        });
        break;
      }
      default:
        report(SHAPE_INVALID_VALUE, {
          path,
          messageId: "value",
          data: { field, actual: describeValue(actual), expected: issue.message, suggestion: "" },
        });
    }
  }
}

/**
 * Finds fields the format does not define, walking the value beside the
 * schema. Unknown fields are kept (and saved back); this only warns, with a
 * "did you mean" when a known field is close.
 */
export function findUnknownFields(schema: z.ZodType, value: unknown, path: JsonPath, report: Reporter): void {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      findUnknownFields(def.innerType as z.ZodType, value, path, report);
      return;
    case "lazy":
      findUnknownFields((def.getter as () => z.ZodType)(), value, path, report);
      return;
    case "object": {
      if (!isPlainObject(value)) return;
      const shape = def.shape as Record<string, z.ZodType>;
      const loose = def.catchall !== undefined;
      for (const [key, child] of Object.entries(value)) {
        const fieldSchema = Object.hasOwn(shape, key) ? shape[key] : undefined;
        if (fieldSchema) findUnknownFields(fieldSchema, child, [...path, key], report);
        else if (!loose) {
          report(SHAPE_UNKNOWN_FIELD, {
            path: [...path, key],
            atKey: true,
            messageId: "unknown",
            data: {
              field: key,
              parent: path.length ? formatPath(path) : "the top level",
              suggestion: didYouMean(key, Object.keys(shape)),
            },
          });
        }
      }
      return;
    }
    case "record":
      if (!isPlainObject(value)) return;
      for (const [key, child] of Object.entries(value))
        findUnknownFields(def.valueType as z.ZodType, child, [...path, key], report);
      return;
    case "array":
      if (!Array.isArray(value)) return;
      for (let i = 0; i < value.length; i++)
        findUnknownFields(def.element as z.ZodType, value[i], [...path, i], report);
      return;
    case "union": {
      const branch = pickBranch(def.options as z.ZodType[], def.discriminator as string | undefined, value);
      if (branch) findUnknownFields(branch, value, path, report);
      return;
    }
  }
}

/** Per union and discriminator value, the branches that value can mean: built once, not per node. */
const branchCache = new WeakMap<object, Map<unknown, z.ZodType[]>>();

/** The union branch a value was meant for: by discriminator, else the first that accepts it. */
function pickBranch(
  options: z.ZodType[],
  discriminator: string | undefined,
  value: unknown,
): z.ZodType | undefined {
  if (!isPlainObject(value)) return undefined;
  const key = discriminator ?? ("type" in value ? "type" : undefined);
  let candidates = options;
  if (key) {
    const tag = value[key];
    let byTag = branchCache.get(options);
    if (!byTag) {
      byTag = new Map();
      branchCache.set(options, byTag);
    }
    let cached = byTag.get(tag);
    if (!cached) {
      cached = options.filter((o) => {
        const field = (o._zod.def as { shape?: Record<string, z.ZodType> }).shape?.[key];
        return field?.safeParse(tag).success;
      });
      // Only scalar tags are cached: objects as keys would grow the map without bound.
      if (tag === null || typeof tag !== "object") byTag.set(tag, cached);
    }
    candidates = cached;
  }
  if (candidates.length === 1) return candidates[0];
  return candidates.find((o) => o.safeParse(value).success) ?? candidates[0];
}
