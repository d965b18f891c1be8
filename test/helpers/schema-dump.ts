import { z } from "zod";
import { worldJsonSchema } from "../../src/world/json-schema.ts";
import * as schemas from "../../src/world/schema/index.ts";

/**
 * The JSON Schema of every zod schema the format's modules export (alone, in
 * a record or in a list) and the editor schema: what the descriptions of
 * src/world/schema/ make. src/world/schema/describe.test.ts compares it with
 * the same dump made with zod's own copies (`TALEFORGE_DESCRIBE_COPIES`).
 */
export function schemaDump(): string {
  const out: Record<string, unknown> = { world: worldJsonSchema() };
  const add = (name: string, value: unknown) => {
    if (value && typeof value === "object" && "_zod" in value)
      out[name] = z.toJSONSchema(value as z.ZodType, { unrepresentable: "any" });
  };
  for (const [name, value] of Object.entries(schemas)) {
    if (Array.isArray(value)) for (const [i, item] of value.entries()) add(`${name}[${i}]`, item);
    else if (value && typeof value === "object" && !("_zod" in value))
      for (const [key, item] of Object.entries(value)) {
        if (Array.isArray(item)) for (const [i, one] of item.entries()) add(`${name}.${key}[${i}]`, one);
        else add(`${name}.${key}`, item);
      }
    else add(name, value);
  }
  return JSON.stringify(out);
}
