import type { z } from "zod";
import { EFFECT_SCHEMAS, type EffectType } from "../schema/effects.ts";

/**
 * What each effect type accepts, read from EFFECT_SCHEMAS itself rather than
 * written out again: the effect rules then flag exactly the effects that the
 * engine's `parseEffect` would drop at run time, and a change to a schema
 * changes the rules with it.
 */

/** A text field of an effect besides `type`, `operator` and `value`. */
export interface EffectField {
  name: string;
  /** Required in every variant of the type. */
  required: boolean;
  /** The allowed values when the field is an enumeration (`source`, `target`). */
  options?: readonly string[];
}

export interface EffectSpec {
  /** Allowed operators, in table order; empty when the type takes no operator. */
  operators: readonly string[];
  fields: readonly EffectField[];
  /** The `value` schema that goes with an allowed operator; undefined for any other operator. */
  valueFor(operator: string): z.ZodType | undefined;
}

interface Def {
  type: string;
  values?: unknown[];
  entries?: Record<string, string>;
  options?: z.ZodType[];
  element?: z.ZodType;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schema inside any `.optional()` wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (defOf(inner).type === "optional" && defOf(inner).innerType) inner = defOf(inner).innerType!;
  return inner;
}

export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The values of a literal or enum schema; undefined for any other schema. */
function optionsOf(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === "literal") return (def.values ?? []).map(String);
  if (def.type === "enum") return Object.values(def.entries ?? {});
  return undefined;
}

function specOf(variants: readonly z.ZodObject[]): EffectSpec {
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
      const required = !isOptional(schema);
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
    valueFor: (operator) => values.get(operator),
  };
}

const SPECS = new Map<string, EffectSpec>(
  Object.entries(EFFECT_SCHEMAS).map(([type, variants]) => [type, specOf(variants)]),
);

export function effectSpec(type: EffectType): EffectSpec {
  return SPECS.get(type)!;
}

/** The array schema a value schema accepts, if any (`write-array set`, `player-traits`). */
export function arrayIn(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === "array") return def.element;
  if (def.type === "union") {
    for (const option of def.options ?? []) {
      const element = arrayIn(option);
      if (element) return element;
    }
  }
  return undefined;
}

const PRIMITIVES = new Set(["string", "number", "boolean"]);

/** `string`, `number` or `boolean` names of a plain or union-of-plain schema; undefined otherwise. */
function primitiveNames(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrap(schema));
  if (PRIMITIVES.has(def.type)) return [def.type];
  if (def.type !== "union") return undefined;
  const names: string[] = [];
  for (const option of def.options ?? []) {
    const inner = primitiveNames(option);
    if (!inner) return undefined;
    names.push(...inner);
  }
  return names;
}

function joinOr(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** What a schema accepts, in words for a message: "a number", "an array of strings, numbers or booleans". */
export function describeSchema(schema: z.ZodType): string {
  const primitives = primitiveNames(schema);
  if (primitives) return `a ${joinOr(primitives)}`;
  const def = defOf(unwrap(schema));
  switch (def.type) {
    case "array": {
      const element = def.element ? primitiveNames(def.element) : undefined;
      return element ? `an array of ${joinOr(element.map((n) => `${n}s`))}` : "an array";
    }
    case "literal":
    case "enum":
      return `one of ${(optionsOf(schema) ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "union":
      return (def.options ?? []).map(describeSchema).join(", or ");
    default:
      return def.type;
  }
}
