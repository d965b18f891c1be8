import type { z } from "zod";
import { isPlainObject } from "./values.ts";

/**
 * A zod schema turned, once, into a plain tree that the shape step walks
 * without zod: checking a value this way gives exactly zod's yes or no (the
 * issues of a value that fails are still zod's, parsed again only then), and
 * the same walk finds unknown fields. zod stays the one definition of the
 * format; a kind of schema this tree does not know is handed back to zod.
 */
export type Plan =
  | { kind: "any" }
  | { kind: "never" }
  | { kind: "string" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "values"; values: ReadonlySet<unknown> }
  | { kind: "optional"; inner: Plan }
  | { kind: "nullable"; inner: Plan }
  | ObjectPlan
  | { kind: "array"; element: Plan }
  | { kind: "record"; value: Plan; schema: z.ZodType }
  | UnionPlan
  | { kind: "zod"; schema: z.ZodType };

export interface ObjectPlan {
  kind: "object";
  fields: Map<string, Plan>;
  /** Extra keys are allowed and not reported as unknown (looseObject). */
  loose: boolean;
  /** The shape's keys, for "did you mean", and in the same order the plans of their fields. */
  keys: string[];
  /**
   * The plans of the fields, key by key as in `keys`: walked by index, since
   * iterating the map allocates an entry and an iterator result per field,
   * which in code that runs once per process (still interpreted) was the
   * largest source of garbage of a check.
   */
  plans: Plan[];
  /** The keys a value must have (their plan refuses undefined); computed on first use, by `requiredKeys`. */
  required?: string[];
  schema: z.ZodType;
}

export interface UnionPlan {
  kind: "union";
  options: Plan[];
  /** The schemas of the options, in the same order. */
  schemas: z.ZodType[];
  discriminator: string | undefined;
  /** Per tag value (scalars only): the options whose tag field accepts it, computed on first sight. */
  byTag: Map<unknown, Plan[]>;
}

const plans = new WeakMap<z.ZodType, Plan>();

/** The plan of a schema, built on first use and kept with the schema. */
export function planOf(schema: z.ZodType): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = build(schema);
    plans.set(schema, plan);
  }
  return plan;
}

function build(schema: z.ZodType): Plan {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const checked = Array.isArray(def.checks) && def.checks.length > 0;
  if (checked) return { kind: "zod", schema };
  switch (def.type) {
    case "any":
    case "unknown":
      return { kind: "any" };
    case "never":
      return { kind: "never" };
    case "string":
    case "number":
    case "boolean":
    case "null":
      return { kind: def.type };
    case "literal":
      return { kind: "values", values: new Set(def.values as unknown[]) };
    case "enum":
      return { kind: "values", values: new Set(Object.values(def.entries as Record<string, unknown>)) };
    case "optional":
    case "default":
      return lazyWrap("optional", def.innerType as z.ZodType);
    case "nullable":
      return lazyWrap("nullable", def.innerType as z.ZodType);
    case "readonly":
      return planOf(def.innerType as z.ZodType);
    case "object": {
      const catchall = def.catchall as z.ZodType | undefined;
      const catchallType = catchall?._zod.def.type;
      // Strip (no catchall) and loose (unknown) objects take any extra key; anything stricter goes to zod.
      if (catchall && catchallType !== "unknown" && catchallType !== "any") return { kind: "zod", schema };
      const shape = def.shape as Record<string, z.ZodType>;
      const plan: ObjectPlan = {
        kind: "object",
        fields: new Map(),
        loose: catchall !== undefined,
        keys: Object.keys(shape),
        plans: [],
        schema,
      };
      // Registered before its fields: a recursive (lazy) schema finds itself instead of looping.
      plans.set(schema, plan);
      for (const key of plan.keys) {
        const field = planOf(shape[key]!);
        plan.fields.set(key, field);
        plan.plans.push(field);
      }
      return plan;
    }
    case "array":
      return { kind: "array", element: planOf(def.element as z.ZodType) };
    case "record": {
      const keyType = (def.keyType as z.ZodType)._zod.def as { type: string; checks?: unknown[] };
      if (keyType.type !== "string" || (keyType.checks?.length ?? 0) > 0) return { kind: "zod", schema };
      return { kind: "record", value: planOf(def.valueType as z.ZodType), schema };
    }
    case "union": {
      const schemas = def.options as z.ZodType[];
      return {
        kind: "union",
        options: schemas.map(planOf),
        schemas,
        discriminator: def.discriminator as string | undefined,
        byTag: new Map(),
      };
    }
    case "lazy":
      return planOf((def.getter as () => z.ZodType)());
    default:
      return { kind: "zod", schema };
  }
}

function lazyWrap(kind: "optional" | "nullable", inner: z.ZodType): Plan {
  return { kind, inner: planOf(inner) };
}

// Read once: `Object.hasOwn` in code that runs interpreted is two property loads before the call.
const { hasOwn } = Object;
const { isArray } = Array;

/**
 * Whether the schema accepts the value: the same answer as zod's
 * `safeParse(value).success`, for JSON values (and for anything else, by
 * asking zod).
 */
export function accepts(plan: Plan, value: unknown): boolean {
  switch (plan.kind) {
    // The kinds most values meet come first: each case is one more comparison when interpreted.
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "optional":
      return value === undefined || accepts(plan.inner, value);
    case "values":
      return plan.values.has(value);
    case "boolean":
      return typeof value === "boolean";
    case "object": {
      if (!isPlainObject(value)) return isOtherObject(value) && plan.schema.safeParse(value).success;
      const { keys, plans } = plan;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if (!accepts(plans[i]!, hasOwn(value, key) ? value[key] : undefined)) return false;
      }
      return true;
    }
    case "array": {
      if (!isArray(value)) return false;
      for (let i = 0; i < value.length; i++) if (!accepts(plan.element, value[i])) return false;
      return true;
    }
    case "union": {
      // By index: for-of makes an iterator and a result per option when interpreted.
      const options = plan.options;
      for (let i = 0; i < options.length; i++) if (accepts(options[i]!, value)) return true;
      return false;
    }
    case "record": {
      if (!isPlainObject(value)) return isOtherObject(value) && plan.schema.safeParse(value).success;
      for (const key in value) if (hasOwn(value, key) && !accepts(plan.value, value[key])) return false;
      return true;
    }
    case "nullable":
      return value === null || accepts(plan.inner, value);
    case "null":
      return value === null;
    case "any":
      return true;
    case "never":
      return false;
    case "zod":
      return plan.schema.safeParse(value).success;
  }
}

/**
 * The keys of an object plan whose field refuses undefined (a value without
 * one is refused), computed once per plan: after the plan is built, so that a
 * recursive schema's plan is complete when it is asked.
 */
export function requiredKeys(plan: ObjectPlan): string[] {
  if (plan.required) return plan.required;
  const required: string[] = [];
  for (let i = 0; i < plan.keys.length; i++)
    if (!accepts(plan.plans[i]!, undefined)) required.push(plan.keys[i]!);
  plan.required = required;
  return required;
}

/** An object that is neither an array nor plain (a class instance, from code rather than JSON). */
function isOtherObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The union option a value was meant for, for the unknown-field walk: by its
 * tag (the discriminator, or `type` when the value has one), else the first
 * option that accepts it, else the first candidate.
 */
export function branchOf(plan: UnionPlan, value: unknown): Plan | undefined {
  if (!isPlainObject(value)) return undefined;
  const key = plan.discriminator ?? ("type" in value ? "type" : undefined);
  let candidates = plan.options;
  if (key) {
    const tag = value[key];
    let cached = plan.byTag.get(tag);
    if (!cached) {
      cached = plan.options.filter((option) => {
        const field = tagField(option, key);
        return field !== undefined && accepts(field, tag);
      });
      // Only scalar tags are kept: objects as keys would grow the map without bound.
      if (tag === null || typeof tag !== "object") plan.byTag.set(tag, cached);
    }
    candidates = cached;
  }
  if (candidates.length === 1) return candidates[0];
  // A loop rather than `find` with a closure made per call (whose optimised code a full collection drops).
  for (let i = 0; i < candidates.length; i++) if (accepts(candidates[i]!, value)) return candidates[i];
  return candidates[0];
}

/** The plan of an option's tag field, when the option is an object schema (one zod checks itself included). */
function tagField(option: Plan, key: string): Plan | undefined {
  if (option.kind === "object") return option.fields.get(key);
  if (option.kind !== "zod") return undefined;
  const shape = (option.schema._zod.def as { shape?: Record<string, z.ZodType> }).shape;
  const field = shape && Object.hasOwn(shape, key) ? shape[key] : undefined;
  return field ? planOf(field) : undefined;
}

/** `schema.safeParse(value).success` without zod's parse (and its garbage), through the schema's plan. */
export function schemaAccepts(schema: z.ZodType, value: unknown): boolean {
  return accepts(planOf(schema), value);
}
