import type { z } from "zod";
import { mapPlans, sectionNames, sectionPlans } from "./check-plans.ts";
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
import { formatSchemas } from "./schema/lazy.ts";
import type { SectionName } from "./schema/world.ts";
import { accepts, branchOf, type Plan, requiredKeys } from "./shape-plan.ts";
import { didYouMean } from "./suggest.ts";
import { deepFreeze, describeValue, isPlainObject, valueAt } from "./values.ts";

export type Reporter = (info: CodeInfo, report: Report) => void;

export interface ShapeResult {
  /** Sections (and records of keyed maps) that passed, as written. */
  valid: Record<string, unknown>;
  validSections: Set<SectionName>;
}

export interface ShapeOptions {
  /**
   * Whether some object of the world may hold an own `__proto__` key. False
   * when the text has neither `__proto__` nor a `\\u` escape, which skips
   * the search for them.
   */
  protoKeys?: boolean;
  /**
   * Freeze every object and array of the world (deeply) in the same walk, as
   * validateWorld needs before its rules run, instead of a second walk over
   * the whole world. A node is frozen only once everything under it is, so
   * `deepFreeze` can take a frozen node as done.
   */
  freeze?: boolean;
}

// The built-ins the walks call on every node, read once: `Object.hasOwn` in code that runs
// interpreted is two property loads before the call.
const { freeze, getPrototypeOf, hasOwn, prototype: OBJECT_PROTOTYPE } = Object;
const { isArray } = Array;

/**
 * Checks every section on its own, and each record of a keyed map on its own,
 * so that one broken record neither hides the others nor keeps the rules from
 * seeing the rest of the world; in the same walk, reports fields the format
 * does not define. The walk follows the plans of the check table (made from
 * the schemas, check-plans.ts); zod parses a record again only when it fails,
 * for its issues, and the schemas are built then (schema/lazy.ts).
 */
export function checkShape(
  root: Record<string, unknown>,
  report: Reporter,
  options: ShapeOptions = {},
): ShapeResult {
  const protoKeys = options.protoKeys ?? true;
  inherited = inheritsKeys();
  const walk: Walk = { report, freeze: options.freeze ?? false };
  const valid: Record<string, unknown> = {};
  const validSections = new Set<SectionName>();
  if (Object.hasOwn(root, "__proto__")) reportProtoKeys(root, [], report, false);
  const names = sectionNames();
  for (const key in root) {
    if (Object.hasOwn(root, key) && !names.includes(key)) reportUnknown(key, [], names, report);
  }
  // The sections' plans, from the check table: the schemas are built only for a section that fails.
  for (const [name, plan] of sectionPlans()) {
    const value = root[name];
    if (value === undefined) {
      const optional = accepts(plan, undefined);
      if (!optional && !(name === "heroesVersion" && hasOtherVersionField(root))) {
        report(SHAPE_MISSING_FIELD, {
          path: [name],
          messageId: "missing",
          data: { field: name, parent: "the top level", hint: missingFieldHint([name]) },
        });
      }
      if (optional) validSections.add(name);
      continue;
    }
    if (mapPlans(name)) {
      const kept = checkMap(name, value, walk, protoKeys);
      if (kept) {
        valid[name] = kept.records;
        if (kept.allValid) validSections.add(name);
      }
      continue;
    }
    const path: JsonPath = [name];
    if (protoKeys && hasProtoKey(value)) {
      reportProtoKeys(value, path, report);
      walkUnknown(plan, value, path, walk);
      continue;
    }
    if (visit(plan, value, path, walk)) {
      valid[name] = value;
      validSections.add(name);
      continue;
    }
    const result = (formatSchemas().SECTIONS[name] as z.ZodType).safeParse(value);
    if (result.success) {
      valid[name] = value;
      validSections.add(name);
    } else reportIssues(result.error.issues, [name], root, report);
  }
  return { valid, validSections };
}

/** Whether any object under a value has an own `__proto__` key (JSON.parse makes one from the text). */
function hasProtoKey(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const child of node) if (child !== null && typeof child === "object") stack.push(child);
      continue;
    }
    if (Object.hasOwn(node, "__proto__")) return true;
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return false;
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

function checkMap(name: SectionName, value: unknown, walk: Walk, protoKeys: boolean) {
  const report = walk.report;
  if (!isPlainObject(value)) {
    report(SHAPE_WRONG_TYPE, {
      path: [name],
      messageId: "type",
      data: { field: name, expected: "an object keyed by name", actual: describeValue(value) },
    });
    return undefined;
  }
  // The record as the format defines it (for unknown fields), and the looser shape checked at load, if any.
  const { full, lenient } = mapPlans(name)!;
  const records: Record<string, unknown> = {};
  let allValid = true;
  const path: JsonPath = [name, ""];
  for (const key in value) {
    if (inherited && !hasOwn(value, key)) continue;
    const record = value[key];
    path[1] = key;
    if (protoKeys && hasProtoKey(record)) {
      reportProtoKeys(record, [name, key], report);
      walkUnknown(full, record, path, walk);
      allValid = false;
      continue;
    }
    const ok = lenient ? visitLenient(full, lenient, record, path, walk) : visit(full, record, path, walk);
    if (ok) {
      records[key] = record;
      continue;
    }
    const result = formatSchemas().recordSchema(name)!.safeParse(record);
    if (result.success) records[key] = record;
    else {
      allValid = false;
      reportIssues(result.error.issues, [name, key], { [name]: value }, report);
    }
  }
  if (walk.freeze) {
    // Every record is walked (and so frozen): freezing the section here spares deepFreeze a
    // look at each record (Object.isFrozen goes over an object's properties).
    freeze(value);
    freeze(records);
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

/** Reports a field the format does not define, at its key, with a "did you mean". */
function reportUnknown(key: string, parent: JsonPath, known: readonly string[], report: Reporter): void {
  report(SHAPE_UNKNOWN_FIELD, {
    path: [...parent, key],
    atKey: true,
    messageId: "unknown",
    data: {
      field: key,
      parent: parent.length ? formatPath(parent) : "the top level",
      suggestion: suggestionFor(key, known),
    },
  });
}

/**
 * The "did you mean" of an unknown field, worked out once per list of known fields and key: a
 * world that repeats one unknown field in many records (150 NPCs with the same stray field) asked
 * for the same edit distances 150 times, 18 M instructions of a `check` (docs/benchmarks.md). The
 * lists are the plans' own, which live as long as the process; each keeps at most
 * SUGGESTIONS_KEPT keys, so that a long-lived language server holds no more.
 */
const suggestions = new WeakMap<readonly string[], Map<string, string>>();
const SUGGESTIONS_KEPT = 64;

function suggestionFor(key: string, known: readonly string[]): string {
  let byKey = suggestions.get(known);
  if (!byKey) {
    byKey = new Map();
    suggestions.set(known, byKey);
  }
  let suggestion = byKey.get(key);
  if (suggestion === undefined) {
    suggestion = didYouMean(key, known);
    if (byKey.size >= SUGGESTIONS_KEPT) byKey.clear();
    byKey.set(key, suggestion);
  }
  return suggestion;
}

/**
 * Whether `for...in` over a plain object may yield a key that is not its own:
 * only when code made a property of Object.prototype enumerable. Found once
 * per walk (checkShape), so that the walks ask Object.hasOwn of each key only
 * then: asked of every key of a world, it was a tenth of the walk's cost.
 */
let inherited = true;

function inheritsKeys(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/** What the walks below carry: where reports go, and whether they freeze what they have walked. */
interface Walk {
  report: Reporter;
  freeze: boolean;
}

/**
 * Deep-freezes a value the walk does not go into (with `freeze`): a field it
 * does not know, a value of the wrong type, a branch it cannot choose.
 */
function settle(walk: Walk, value: unknown): void {
  if (walk.freeze && value !== null && typeof value === "object") deepFreeze(value);
}

/**
 * Walks a value beside its plan and reports unknown fields, as
 * findUnknownFields does. `path` is the walk's own stack, pushed and popped;
 * a report copies it. A scalar child is not walked into: it has no fields and
 * nothing to freeze (a call per leaf was most of the walk's cost, interpreted).
 */
function walkUnknown(plan: Plan, value: unknown, path: JsonPath, walk: Walk): void {
  // Objects and arrays first: each case is one more comparison when interpreted.
  switch (plan.kind) {
    case "object": {
      // isPlainObject (values.ts) written out: a call fewer per object of the world.
      if (value === null || typeof value !== "object" || isArray(value)) break;
      const proto = getPrototypeOf(value);
      if (proto !== OBJECT_PROTOTYPE && proto !== null) break;
      const { fields, loose } = plan;
      for (const key in value) {
        if (inherited && !hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        const field = fields.get(key);
        if (field === undefined) {
          if (!loose) reportUnknown(key, path, plan.keys, walk.report);
          settle(walk, child);
        } else if (child !== null && typeof child === "object") {
          path.push(key);
          walkUnknown(field, child, path, walk);
          path.pop();
        }
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      return;
    }
    case "record": {
      // isPlainObject (values.ts) written out: a call fewer per object of the world.
      if (value === null || typeof value !== "object" || isArray(value)) break;
      const proto = getPrototypeOf(value);
      if (proto !== OBJECT_PROTOTYPE && proto !== null) break;
      const field = plan.value;
      for (const key in value) {
        if (inherited && !hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        if (child === null || typeof child !== "object") continue;
        path.push(key);
        walkUnknown(field, child, path, walk);
        path.pop();
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      return;
    }
    case "array": {
      if (!isArray(value)) break;
      const element = plan.element;
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (child === null || typeof child !== "object") continue;
        path.push(i);
        walkUnknown(element, child, path, walk);
        path.pop();
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      return;
    }
    case "optional":
    case "nullable":
      walkUnknown(plan.inner, value, path, walk);
      return;
    case "union": {
      const branch = branchOf(plan, value);
      if (!branch) break;
      walkUnknown(branch, value, path, walk);
      return;
    }
    case "zod":
      findUnknownFields(plan.schema, value, [...path], walk.report);
      break;
  }
  settle(walk, value);
}

/**
 * walkUnknown and `accepts` in one walk: reports unknown fields and answers
 * whether the schema accepts the value (zod's answer). A scalar child only
 * needs `accepts` (see walkUnknown), which is asked directly; a string field's
 * test (two leaves in three at the caps) is written out, a call fewer per leaf.
 */
function visit(plan: Plan, value: unknown, path: JsonPath, walk: Walk): boolean {
  // Objects and arrays first, as in walkUnknown.
  switch (plan.kind) {
    case "object": {
      // isPlainObject (values.ts) written out: a call fewer per object of the world.
      if (value === null || typeof value !== "object" || isArray(value)) break;
      const proto = getPrototypeOf(value);
      if (proto !== OBJECT_PROTOTYPE && proto !== null) break;
      const { fields, loose } = plan;
      let ok = true;
      // The fields present whose plan is known to refuse undefined (refusesUndefined): as many as
      // the required keys means every one is there, without asking Object.hasOwn of each.
      let present = 0;
      for (const key in value) {
        if (inherited && !hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        const field = fields.get(key);
        if (field === undefined) {
          if (!loose) reportUnknown(key, path, plan.keys, walk.report);
          settle(walk, child);
          continue;
        }
        if ((field as RefusalKnown).refusesUndefined === true) present++;
        if (child === null || typeof child !== "object") {
          if (ok && !(field.kind === "string" ? typeof child === "string" : accepts(field, child)))
            ok = false;
        } else {
          path.push(key);
          if (!visit(field, child, path, walk)) ok = false;
          path.pop();
        }
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      if (!ok) return false;
      const required = plan.required ?? requiredKeys(plan);
      if (present === required.length) return true;
      for (let i = 0; i < required.length; i++) if (!hasOwn(value, required[i]!)) return false;
      return true;
    }
    case "record": {
      // isPlainObject (values.ts) written out: a call fewer per object of the world.
      if (value === null || typeof value !== "object" || isArray(value)) break;
      const proto = getPrototypeOf(value);
      if (proto !== OBJECT_PROTOTYPE && proto !== null) break;
      const field = plan.value;
      let ok = true;
      for (const key in value) {
        if (inherited && !hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        if (child === null || typeof child !== "object") {
          if (ok && !(field.kind === "string" ? typeof child === "string" : accepts(field, child)))
            ok = false;
          continue;
        }
        path.push(key);
        if (!visit(field, child, path, walk)) ok = false;
        path.pop();
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      return ok;
    }
    case "array": {
      if (!isArray(value)) {
        settle(walk, value);
        return false;
      }
      const element = plan.element;
      let ok = true;
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (child === null || typeof child !== "object") {
          if (ok && !(element.kind === "string" ? typeof child === "string" : accepts(element, child)))
            ok = false;
          continue;
        }
        path.push(i);
        if (!visit(element, child, path, walk)) ok = false;
        path.pop();
      }
      // Every child is walked (and so frozen) by now.
      if (walk.freeze) freeze(value);
      return ok;
    }
    case "optional":
      return value === undefined || visit(plan.inner, value, path, walk);
    case "nullable":
      return value === null || visit(plan.inner, value, path, walk);
    case "union": {
      // The branch the unknown-field walk takes (walkUnknown): when it accepts, so does the
      // union; only when it does not are the other options asked.
      const branch = branchOf(plan, value);
      if (branch === undefined) break;
      return visit(branch, value, path, walk) || accepts(plan, value);
    }
    case "zod": {
      const ok = accepts(plan, value);
      walkUnknown(plan, value, path, walk);
      return ok;
    }
  }
  const ok = accepts(plan, value);
  settle(walk, value);
  return ok;
}

/** A plan that may say it refuses undefined (the check table's do, check-plans.ts); unsaid means unknown. */
interface RefusalKnown {
  refusesUndefined?: boolean;
}

/**
 * `accepts(lenient, value)` and `walkUnknown(full, value)` in one walk, for
 * the records of a section checked at load against a looser shape than the
 * format's (RECORD_SHAPES): the two plans share most fields, and where a
 * field's plan is the same in both, one `visit` answers for both.
 */
function visitLenient(full: Plan, lenient: Plan, value: unknown, path: JsonPath, walk: Walk): boolean {
  if (full === lenient) return visit(full, value, path, walk);
  // By the full plan's kind, objects first (each test is a comparison or two when interpreted).
  const kind = full.kind;
  if (kind === "object" && lenient.kind === "object" && isPlainObject(value)) {
    const { fields, loose } = full;
    const lenientFields = lenient.fields;
    let ok = true;
    for (const key in value) {
      if (inherited && !hasOwn(value, key)) continue;
      const child = value[key];
      const field = fields.get(key);
      const lenientField = lenientFields.get(key);
      if (field === undefined) {
        if (!loose) reportUnknown(key, path, full.keys, walk.report);
        if (ok && lenientField !== undefined && !accepts(lenientField, child)) ok = false;
        settle(walk, child);
      } else if (lenientField === undefined) {
        // A field only the format knows: a looser shape takes any extra key.
        if (child !== null && typeof child === "object") {
          path.push(key);
          walkUnknown(field, child, path, walk);
          path.pop();
        }
      } else if (child === null || typeof child !== "object") {
        if (
          ok &&
          !(lenientField.kind === "string" ? typeof child === "string" : accepts(lenientField, child))
        )
          ok = false;
      } else {
        path.push(key);
        if (!visitLenient(field, lenientField, child, path, walk)) ok = false;
        path.pop();
      }
    }
    if (walk.freeze) freeze(value);
    if (!ok) return false;
    const required = lenient.required ?? requiredKeys(lenient);
    for (let i = 0; i < required.length; i++) if (!hasOwn(value, required[i]!)) return false;
    return true;
  }
  if (kind === "optional" && lenient.kind === "optional")
    return value === undefined || visitLenient(full.inner, lenient.inner, value, path, walk);
  if (kind === "array" && lenient.kind === "array" && isArray(value)) {
    const { element } = full;
    const lenientElement = lenient.element;
    let ok = true;
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (child === null || typeof child !== "object") {
        if (
          ok &&
          !(lenientElement.kind === "string" ? typeof child === "string" : accepts(lenientElement, child))
        )
          ok = false;
        continue;
      }
      path.push(i);
      if (!visitLenient(element, lenientElement, child, path, walk)) ok = false;
      path.pop();
    }
    if (walk.freeze) freeze(value);
    return ok;
  }
  if (kind === "union") {
    // The branch walkUnknown would take, walked beside the looser shape (a condition or effect
    // of a trigger: any object with a `type`).
    const branch = branchOf(full, value);
    if (branch !== undefined) return visitLenient(branch, lenient, value, path, walk);
  }
  const ok = accepts(lenient, value);
  walkUnknown(full, value, path, walk);
  return ok;
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
