import type { z } from "zod";
import {
  type CheckRoots,
  type CheckTable,
  type EffectField,
  mapRoots,
  rootsOf,
  tableFrom,
} from "./check-table.ts";
import { checkSource } from "./check-table-data.ts";
import type { ConditionType } from "./schema/condition-table.ts";
import type { EffectType } from "./schema/effects.ts";
import { formatSchemas } from "./schema/lazy.ts";
import type { SectionName } from "./schema/world.ts";
import { accepts, type Plan, planOf, type UnionPlan } from "./shape-plan.ts";

/**
 * The plans the shape step and the rules check a world against. In the fast
 * start's script they are read from the check table (check-table.ts) rather
 * than made from the zod schemas: they answer as the schemas' own plans do,
 * and a node reaches its zod schema (to parse a value that is not plain JSON)
 * only when asked, which builds the schemas then (schema/lazy.ts). In the
 * sources they are the schemas' own plans (check-table-data.ts).
 */

/** The plans of the table's nodes made from the schemas: node `id` is the plan of the schema behind it. */
let numbered: Plan[] | undefined;

function schemaOfNode(id: number): z.ZodType {
  numbered ??= tableFrom(formatSchemas()).plans;
  return (numbered[id] as { schema: z.ZodType }).schema;
}

/**
 * A plan read from the table. Every plan has this one shape (the same fields, in the same order,
 * whatever its kind) and its schemas behind getters on the class: the walks load `plan.kind` and a
 * kind's fields on every node of a world, in code that mostly runs interpreted, where a property
 * load that has met more than four shapes goes through V8's megamorphic cache. Plans written as
 * object literals had one shape per kind, and one per object plan (each literal's own getter).
 */
class TablePlan {
  kind: string;
  inner: Plan | undefined = undefined;
  element: Plan | undefined = undefined;
  value: Plan | undefined = undefined;
  values: ReadonlySet<unknown> | undefined = undefined;
  fields: Map<string, Plan> | undefined = undefined;
  loose: boolean | undefined = undefined;
  keys: string[] | undefined = undefined;
  plans: Plan[] | undefined = undefined;
  required: string[] | undefined = undefined;
  options: Plan[] | undefined = undefined;
  discriminator: string | undefined = undefined;
  byTag: Map<unknown, Plan[]> | undefined = undefined;
  /**
   * True when the plan refuses undefined for certain (`accepts(plan, undefined)` is false), found
   * without zod: the shape walk counts such fields to know that a value has its required keys.
   * Undefined when it would take more (a union, a nullable, a zod schema).
   */
  refusesUndefined: boolean | undefined = undefined;
  readonly id: number;
  readonly schemaOf: (id: number) => z.ZodType;

  constructor(kind: string, id: number, schemaOf: (id: number) => z.ZodType) {
    this.kind = kind;
    this.id = id;
    this.schemaOf = schemaOf;
  }

  get schema(): z.ZodType {
    return this.schemaOf(this.id);
  }

  get schemas(): z.ZodType[] {
    numbered ??= tableFrom(formatSchemas()).plans;
    return (numbered[this.id] as UnionPlan).schemas;
  }
}

/** The plans of a table's nodes, by number, with their zod schemas found on first use. */
export function plansFrom(table: CheckTable, schemaOf: (id: number) => z.ZodType = schemaOfNode): Plan[] {
  // Made first and linked after: a node may be reached from several places, or from itself.
  const plans = table.nodes.map((node, id): Plan => {
    const plan = new TablePlan(node.kind, id, schemaOf);
    switch (node.kind) {
      case "values":
        plan.values = new Set(node.values);
        plan.refusesUndefined = !plan.values.has(undefined);
        break;
      case "optional":
      case "any":
        plan.refusesUndefined = false;
        break;
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "never":
      case "array":
      case "record":
        plan.refusesUndefined = true;
        break;
      case "object":
        plan.refusesUndefined = true;
        plan.fields = new Map();
        plan.loose = node.loose;
        plan.keys = node.keys;
        plan.plans = [];
        break;
      case "union":
        plan.options = [];
        plan.discriminator = node.discriminator ?? undefined;
        plan.byTag = new Map();
        break;
    }
    return plan as unknown as Plan;
  });
  table.nodes.forEach((node, id) => {
    const plan = plans[id] as unknown as TablePlan;
    if (node.kind === "optional" || node.kind === "nullable") plan.inner = plans[node.inner]!;
    else if (node.kind === "array") plan.element = plans[node.element]!;
    else if (node.kind === "record") plan.value = plans[node.value]!;
    else if (node.kind === "union") for (const option of node.options) plan.options!.push(plans[option]!);
    else if (node.kind === "object") {
      node.keys.forEach((key, i) => {
        const field = plans[node.plans[i]!]!;
        plan.fields!.set(key, field);
        plan.plans!.push(field);
      });
    }
  });
  return plans;
}

export interface MapPlans {
  /** A record as the format defines it (for unknown fields). */
  full: Plan;
  /** The looser shape a record is checked against at load, when there is one (RECORD_SHAPES). */
  lenient: Plan | undefined;
}

/** What an effect type takes (check-table.ts, `specOf`). */
export interface EffectSpec {
  /** Allowed operators, in table order; empty when the type takes no operator. */
  operators: readonly string[];
  fields: readonly EffectField[];
  /** The plan of the `value` that goes with an allowed operator; undefined for any other operator. */
  valuePlan(operator: string): Plan | undefined;
  /** The `value` schema that goes with an allowed operator; undefined for any other operator. */
  valueFor(operator: string): z.ZodType | undefined;
}

/** The table's plans, found by what they are the plans of. */
interface Tables {
  sections: readonly (readonly [SectionName, Plan])[];
  sectionNames: readonly string[];
  maps: Map<string, MapPlans>;
  conditions: Map<string, Plan>;
  effects: Map<string, EffectSpec>;
  /** The plans of each effect type's schemas. */
  variants: Map<string, Plan[]>;
  effectTypeNames: EffectType[];
}

/** Read on first use: a process that never checks a world (most commands of the sources) never makes the table. */
let tables: Tables | undefined;

function read(): Tables {
  const source = checkSource();
  let roots: CheckRoots<Plan>;
  if ("nodes" in source) {
    const plans = plansFrom(source);
    roots = mapRoots(source, (id) => plans[id]!);
  } else {
    rootSchemas = source;
    roots = mapRoots(source, planOf);
  }
  tables = {
    sections: roots.sections,
    sectionNames: roots.sections.map(([name]) => name),
    maps: new Map(roots.maps.map(([name, full, lenient]) => [name, { full, lenient: lenient ?? undefined }])),
    conditions: new Map(roots.conditions),
    effects: new Map(
      roots.effects.map(([type, data]) => {
        const values = new Map(data.values);
        const spec: EffectSpec = {
          operators: data.operators,
          fields: data.fields,
          valuePlan: (operator) => values.get(operator),
          valueFor: (operator) => valueSchemas(type).get(operator),
        };
        return [type, spec];
      }),
    ),
    variants: new Map(roots.effects.map(([type, data]) => [type, data.variants])),
    effectTypeNames: roots.effects.map(([type]) => type) as EffectType[],
  };
  return tables;
}

/** The schemas the table was made from: given in the sources, built on first need from the table. */
let rootSchemas: CheckRoots<z.ZodType> | undefined;
const valueSchemasByType = new Map<string, Map<string, z.ZodType>>();

/** An effect type's `value` schema by operator, for the messages about a value that is wrong. */
function valueSchemas(type: string): Map<string, z.ZodType> {
  let values = valueSchemasByType.get(type);
  if (!values) {
    rootSchemas ??= rootsOf(formatSchemas());
    values = new Map(rootSchemas.effects.find(([name]) => name === type)?.[1].values);
    valueSchemasByType.set(type, values);
  }
  return values;
}

/** Every top-level section, in the World schema's order, with its plan. */
export function sectionPlans(): readonly (readonly [SectionName, Plan])[] {
  return (tables ?? read()).sections;
}

/** The names of the top-level sections, in the World schema's order. */
export function sectionNames(): readonly string[] {
  return (tables ?? read()).sectionNames;
}

/** The plans of a keyed map section's records; undefined for any other section. */
export function mapPlans(section: string): MapPlans | undefined {
  return (tables ?? read()).maps.get(section);
}

/** The plan of a condition type's schema (CONDITION_SCHEMAS). */
export function conditionPlan(type: ConditionType): Plan {
  return (tables ?? read()).conditions.get(type)!;
}

export function effectSpec(type: EffectType): EffectSpec {
  return (tables ?? read()).effects.get(type)!;
}

/** The effect types, in EFFECT_SCHEMAS's order. */
export function effectTypeNames(): readonly EffectType[] {
  return (tables ?? read()).effectTypeNames;
}

/** Whether a value names an effect type (a key of EFFECT_SCHEMAS). */
export function isEffectType(type: unknown): type is EffectType {
  return typeof type === "string" && (tables ?? read()).effects.has(type);
}

/** Whether an effect is well-formed: `parseEffect(value).ok`, without zod. */
export function isWellFormedEffect(value: unknown): boolean {
  const type = (value as { type?: unknown } | null)?.type;
  if (!isEffectType(type)) return false;
  const variants = (tables ?? read()).variants.get(type)!;
  for (let i = 0; i < variants.length; i++) if (accepts(variants[i]!, value)) return true;
  return false;
}
