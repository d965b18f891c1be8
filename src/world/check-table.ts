import type { z } from "zod";
import type { FormatSchemas } from "./schema/lazy.ts";
import type { SectionName } from "./schema/world.ts";
import { type Plan, planOf } from "./shape-plan.ts";

/**
 * What checking a valid world needs of the format's zod schemas, as plain
 * data: the plan (shape-plan.ts) of every section, of every record of a keyed
 * map, of every condition type, of every effect schema and effect value, and
 * what each effect type takes. It is made from the schemas by `tableFrom`, at
 * build time, for the fast start's script (scripts/build.ts writes it in as
 * JSON), so that a check of a valid world there builds no zod schema at all;
 * the sources read the same roots (`rootsOf`) from the schemas directly.
 * check-plans.ts reads either; check-table.test.ts checks that the table says
 * what the schemas say.
 */
export interface CheckTable extends CheckRoots<number> {
  /** Every plan, by number; children are numbers too (a plan may be reached from several places). */
  nodes: PlanNode[];
}

/**
 * What the table holds plans of, each given as `T`: in the table, the number
 * of a plan; before it is made, the schema itself (`rootsOf`).
 */
export interface CheckRoots<T> {
  /** Every top-level section in the World schema's order. */
  sections: [name: SectionName, schema: T][];
  /** The keyed map sections: a record as the format defines it, and the looser shape checked at load. */
  maps: [name: SectionName, full: T, lenient: T | null][];
  conditions: [type: string, schema: T][];
  effects: [type: string, spec: EffectSpecData<T>][];
}

export type PlanNode =
  | { kind: "any" | "never" | "string" | "number" | "boolean" | "null" | "zod" }
  | { kind: "values"; values: JsonScalar[] }
  | { kind: "optional" | "nullable"; inner: number }
  | { kind: "object"; loose: boolean; keys: string[]; plans: number[] }
  | { kind: "array"; element: number }
  | { kind: "record"; value: number }
  | { kind: "union"; options: number[]; discriminator: string | null };

type JsonScalar = string | number | boolean | null;

/** A text field of an effect besides `type`, `operator` and `value`. */
export interface EffectField {
  name: string;
  /** Required in every variant of the type. */
  required: boolean;
  /** The allowed values when the field is an enumeration (`source`, `target`). */
  options?: readonly string[];
}

export interface EffectSpecData<T> {
  /** Allowed operators, in table order; empty when the type takes no operator. */
  operators: string[];
  fields: EffectField[];
  /** The `value` that goes with each allowed operator that has one. */
  values: [operator: string, schema: T][];
  /** The type's schemas (an effect is well-formed when one accepts it, as in parseEffect). */
  variants: T[];
}

/** The schemas the table holds plans of, read from the format's schemas. */
export function rootsOf(schemas: FormatSchemas): CheckRoots<z.ZodType> {
  const { SECTIONS, MAP_SECTIONS, RECORD_SHAPES, recordSchema, CONDITION_SCHEMAS, EFFECT_SCHEMAS } = schemas;
  const section = (name: SectionName) => SECTIONS[name] as z.ZodType;
  return {
    sections: (Object.keys(SECTIONS) as SectionName[]).map((name) => [name, section(name)]),
    maps: MAP_SECTIONS.map((name) => [
      name,
      mapValueSchema(section(name)),
      RECORD_SHAPES[name] ? recordSchema(name)! : null,
    ]),
    conditions: Object.entries(CONDITION_SCHEMAS),
    effects: Object.entries(EFFECT_SCHEMAS).map(([type, variants]) => {
      const { operators, fields, values } = specOf(variants);
      return [type, { operators, fields, values: [...values], variants: [...variants] }];
    }),
  };
}

/** The same roots with each schema (or number) replaced by `f` of it. */
export function mapRoots<T, U>(roots: CheckRoots<T>, f: (ref: T) => U): CheckRoots<U> {
  return {
    sections: roots.sections.map(([name, ref]) => [name, f(ref)]),
    maps: roots.maps.map(([name, full, lenient]) => [name, f(full), lenient === null ? null : f(lenient)]),
    conditions: roots.conditions.map(([type, ref]) => [type, f(ref)]),
    effects: roots.effects.map(([type, spec]) => [
      type,
      {
        operators: spec.operators,
        fields: spec.fields,
        values: spec.values.map(([operator, ref]) => [operator, f(ref)]),
        variants: spec.variants.map(f),
      },
    ]),
  };
}

/**
 * Makes the table from the schemas, with the plans (made from zod) its node
 * numbers stand for. The nodes are numbered in the order they are first
 * reached, section by section, then records, conditions and effects: the same
 * schemas always give the same table, which is how check-plans.ts finds the
 * zod schema behind a node when it needs one.
 */
export function tableFrom(schemas: FormatSchemas): { table: CheckTable; plans: Plan[] } {
  const ids = new Map<Plan, number>();
  const plans: Plan[] = [];
  const nodes: PlanNode[] = [];
  const number = (plan: Plan): number => {
    let id = ids.get(plan);
    if (id !== undefined) return id;
    id = plans.length;
    ids.set(plan, id);
    plans.push(plan);
    nodes.push({ kind: "any" }); // its place, so that a plan that reaches itself finds its number
    nodes[id] = nodeOf(plan, number);
    return id;
  };
  const roots = mapRoots(rootsOf(schemas), (schema) => number(planOf(schema)));
  return { table: { nodes, ...roots }, plans };
}

/** The schema of one record of a keyed map section, as the World schema has it. */
function mapValueSchema(section: z.ZodType): z.ZodType {
  let schema = section;
  while (schema._zod.def.type === "optional")
    schema = (schema._zod.def as unknown as { innerType: z.ZodType }).innerType;
  return (schema._zod.def as unknown as { valueType: z.ZodType }).valueType;
}

function nodeOf(plan: Plan, number: (plan: Plan) => number): PlanNode {
  switch (plan.kind) {
    case "values":
      return { kind: "values", values: [...plan.values].map(jsonScalar) };
    case "optional":
    case "nullable":
      return { kind: plan.kind, inner: number(plan.inner) };
    case "object":
      return { kind: "object", loose: plan.loose, keys: [...plan.keys], plans: plan.plans.map(number) };
    case "array":
      return { kind: "array", element: number(plan.element) };
    case "record":
      return { kind: "record", value: number(plan.value) };
    case "union":
      return { kind: "union", options: plan.options.map(number), discriminator: plan.discriminator ?? null };
    default:
      return { kind: plan.kind };
  }
}

/** A literal or enum value, which must survive JSON as itself (the table is written as JSON). */
function jsonScalar(value: unknown): JsonScalar {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0)) return value;
  throw new Error(`check-table: a literal value JSON cannot hold: ${String(value)}`);
}

interface Def {
  type: string;
  values?: unknown[];
  entries?: Record<string, string>;
  innerType?: z.ZodType;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schema inside any `.optional()` wrappers. */
export function unwrapOptional(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (defOf(inner).type === "optional" && defOf(inner).innerType) inner = defOf(inner).innerType!;
  return inner;
}

/** The values of a literal or enum schema; undefined for any other schema. */
export function optionsOf(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrapOptional(schema));
  if (def.type === "literal") return (def.values ?? []).map(String);
  if (def.type === "enum") return Object.values(def.entries ?? {});
  return undefined;
}

/**
 * What an effect type accepts, read from its schemas (EFFECT_SCHEMAS) rather
 * than written out again: the effect rules then flag exactly the effects that
 * the engine's `parseEffect` would drop at run time.
 */
export function specOf(variants: readonly z.ZodObject[]): {
  operators: string[];
  fields: EffectField[];
  values: Map<string, z.ZodType>;
} {
  const operators: string[] = [];
  const values = new Map<string, z.ZodType>();
  const fields = new Map<string, EffectField & { count: number }>();
  for (const variant of variants) {
    const shape = variant.shape as Record<string, z.ZodType>;
    const ops = shape.operator ? (optionsOf(shape.operator) ?? []) : [];
    for (const op of ops) {
      if (!operators.includes(op)) operators.push(op);
      // The first variant that takes an operator decides its value, as in parseEffect.
      if (shape.value && !values.has(op)) values.set(op, shape.value);
    }
    for (const [name, schema] of Object.entries(shape)) {
      if (name === "type" || name === "operator" || name === "value") continue;
      const known = fields.get(name);
      const required = !schema.safeParse(undefined).success;
      if (known) {
        known.count++;
        known.required &&= required;
      } else {
        const options = optionsOf(schema);
        fields.set(name, { name, required, count: 1, ...(options ? { options } : {}) });
      }
    }
  }
  return {
    operators,
    fields: [...fields.values()].map(({ count, ...field }) => ({
      ...field,
      required: field.required && count === variants.length,
    })),
    values,
  };
}
