import type { z } from "zod";
import { optionsOf, unwrapOptional as unwrap } from "../check-table.ts";

/**
 * What each effect type accepts is read from EFFECT_SCHEMAS itself rather than
 * written out again (check-table.ts, `specOf`): the effect rules then flag
 * exactly the effects that the engine's `parseEffect` would drop at run time,
 * and a change to a schema changes the rules with it. The rules read it from
 * the check table (check-plans.ts); the functions here word a schema for a
 * message, when an effect is wrong.
 */
export { type EffectSpec, effectSpec } from "../check-plans.ts";
export type { EffectField } from "../check-table.ts";

interface Def {
  type: string;
  options?: z.ZodType[];
  element?: z.ZodType;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
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
