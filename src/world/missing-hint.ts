import type { z } from "zod";
import type { JsonPath } from "./diagnostic.ts";
import { formatSchemas } from "./schema/lazy.ts";
import { starterWorld } from "./starter.ts";
import { isPlainObject } from "./values.ts";

/**
 * The tail of a `shape/missing-field` message: what the field holds (its
 * type; for an object, its required keys) and a one-line example, e.g.
 * ` (a number), e.g. "regionSize": 100`. The example comes from the starter
 * world of `taleforge init` when it has the field, else it is built from the
 * schema. Only message wording lives here; the shape check decides what is
 * missing.
 */
export function missingFieldHint(path: JsonPath, root?: unknown): string {
  const field = path[path.length - 1];
  const schema = schemaAt(path, root);
  if (!schema || typeof field !== "string") return "";
  const what = describe(schema);
  const example = exampleFor(path, schema);
  return `${what ? ` (${what})` : ""}${example ? `, e.g. ${JSON.stringify(field)}: ${example}` : ""}`;
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;
const MAX_EXAMPLE = 90;

/** Optional, nullable, default and lazy wrappers removed. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    if (def.type === "optional" || def.type === "nullable" || def.type === "default")
      current = def.innerType as z.ZodType;
    else if (def.type === "lazy") current = (def.getter as () => z.ZodType)();
    else break;
  }
  return current;
}

/** The schema of the field at `path`; union branches are picked by the value's discriminator. */
function schemaAt(path: JsonPath, root: unknown): z.ZodType | undefined {
  const [section, ...rest] = path;
  // Asked only for a field that is missing: the schemas are built then, if a check had not needed them yet.
  const { SECTIONS } = formatSchemas();
  if (typeof section !== "string" || !Object.hasOwn(SECTIONS, section)) return undefined;
  let schema: z.ZodType | undefined = SECTIONS[section as keyof typeof SECTIONS] as z.ZodType;
  let value: unknown = isPlainObject(root) ? root[section] : undefined;
  for (const step of rest) {
    schema = childSchema(unwrap(schema), step, value);
    if (!schema) return undefined;
    value =
      value !== null && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
  }
  return schema;
}

function childSchema(schema: z.ZodType, step: string | number, value: unknown): z.ZodType | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.hasOwn(shape, String(step)) ? shape[String(step)] : undefined;
    }
    case "record":
      return def.valueType as z.ZodType;
    case "array":
      return def.element as z.ZodType;
    case "union": {
      const branch = branchFor(def, value);
      return branch ? childSchema(unwrap(branch), step, value) : undefined;
    }
    default:
      return undefined;
  }
}

/** The branch of a union a value was meant for: by its discriminator, else the first object branch. */
function branchFor(def: Def, value: unknown): z.ZodType | undefined {
  const options = def.options as z.ZodType[];
  const key = def.discriminator as string | undefined;
  if (key && isPlainObject(value)) {
    const match = options.find((o) => {
      const field = (defOf(o).shape as Record<string, z.ZodType> | undefined)?.[key];
      return field?.safeParse(value[key]).success;
    });
    if (match) return match;
  }
  return options.find((o) => defOf(unwrap(o)).type === "object");
}

/** "a number", "an object with required keys …", "an array of strings (use [] when it is empty)". */
function describe(schema: z.ZodType): string {
  const inner = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "literal":
      return `exactly ${(def.values as unknown[]).map((v) => JSON.stringify(v)).join(" or ")}`;
    case "enum":
      return `one of ${Object.values(def.entries as Record<string, unknown>)
        .map((v) => JSON.stringify(v))
        .join(", ")}`;
    case "array":
      return `an array${ofWhat(def.element as z.ZodType)}; use [] when it is empty`;
    case "record":
      return `an object keyed by name${ofWhat(def.valueType as z.ZodType)}; use {} when it is empty`;
    case "object": {
      const required = requiredKeys(inner);
      return required.length
        ? `an object with required keys ${required.map((k) => JSON.stringify(k)).join(", ")}`
        : "an object";
    }
    case "union": {
      const branches = (def.options as z.ZodType[]).map(unwrap);
      if (branches.every((b) => defOf(b).type === "object")) {
        const key = def.discriminator as string | undefined;
        return key ? `an object whose "${key}" says which kind it is` : "an object";
      }
      return branches.map(describe).join(" or ");
    }
    default:
      return "";
  }
}

/** " of strings", " of objects with required keys …": what a container holds, briefly. */
function ofWhat(element: z.ZodType): string {
  const def = defOf(unwrap(element));
  if (def.type === "string") return " of strings";
  if (def.type === "number") return " of numbers";
  if (def.type === "object") {
    const keys = requiredKeys(unwrap(element));
    return keys.length ? ` of objects with ${keys.map((k) => JSON.stringify(k)).join(", ")}` : " of objects";
  }
  return "";
}

function requiredKeys(schema: z.ZodType): string[] {
  const shape = (defOf(schema).shape ?? {}) as Record<string, z.ZodType>;
  return Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
}

/** The value at the same place in the starter world (first record of a map), if short; else one built from the schema. */
function exampleFor(path: JsonPath, schema: z.ZodType): string {
  const fromStarter = starterValue(path);
  if (fromStarter !== undefined) {
    const text = JSON.stringify(fromStarter);
    if (text.length <= MAX_EXAMPLE) return text;
  }
  const built = JSON.stringify(sample(schema, 0));
  if (built !== undefined && built.length <= MAX_EXAMPLE) return built;
  return firstEntries(fromStarter) ?? firstEntries(sample(schema, 0)) ?? "";
}

/** `{"a":1,"b":2,…}`: the first entries of a long object that fit on the line. */
function firstEntries(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const parts: string[] = [];
  for (const [key, entry] of Object.entries(value)) {
    const part = `${JSON.stringify(key)}:${JSON.stringify(entry)}`;
    if ([...parts, part].join(",").length > MAX_EXAMPLE - 4) break;
    parts.push(part);
  }
  return parts.length > 0 ? `{${parts.join(",")},…}` : undefined;
}

let starter: Record<string, unknown> | undefined;

function starterValue(path: JsonPath): unknown {
  starter ??= starterWorld();
  const [section, ...rest] = path;
  // Asked only for a field that is missing: the schemas are built then, if a check had not needed them yet.
  const { SECTIONS } = formatSchemas();
  if (typeof section !== "string" || !Object.hasOwn(SECTIONS, section)) return undefined;
  let schema = SECTIONS[section as keyof typeof SECTIONS] as z.ZodType;
  let value: unknown = starter[section];
  for (const step of rest) {
    if (value === null || typeof value !== "object") return undefined;
    const holder = unwrap(schema);
    const kind = defOf(holder).type;
    // A record's keys are the author's own names: the starter's first record stands in for any of them.
    const next: unknown = Array.isArray(value)
      ? value[0]
      : kind === "record"
        ? Object.values(value)[0]
        : (value as Record<string, unknown>)[step];
    const child = childSchema(holder, step, value);
    if (!child) return undefined;
    schema = child;
    value = next;
  }
  return value;
}

/** A small value of a schema, for an example: required keys only, placeholders for text. */
function sample(schema: z.ZodType, depth: number): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case "string":
      return "…";
    case "number":
      return 0;
    case "boolean":
      return false;
    case "literal":
      return (def.values as unknown[])[0];
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "array":
      return [];
    case "record":
      return {};
    case "object": {
      if (depth > 1) return {};
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.fromEntries(requiredKeys(inner).map((k) => [k, sample(shape[k]!, depth + 1)]));
    }
    case "union":
      return sample((def.options as z.ZodType[])[0]!, depth);
    default:
      return undefined;
  }
}
