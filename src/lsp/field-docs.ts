import type { Node } from "jsonc-parser";
import { worldJsonSchema } from "../world/json-schema.ts";
import { member, nodeAt } from "./names.ts";

type Schema = Record<string, unknown>;
let root: Schema | undefined;

function schemaRoot(): Schema {
  root ??= worldJsonSchema();
  return root;
}

/** A `$ref` of the world's JSON Schema resolved (`#/$defs/...`), repeatedly. */
function resolve(schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let i = 0; i < 20 && typeof current?.$ref === "string"; i++) {
    let target: unknown = schemaRoot();
    for (const step of (current.$ref as string).replace(/^#\//, "").split("/"))
      target = (target as Schema)?.[step];
    current = target as Schema | undefined;
  }
  return current;
}

/**
 * The branch of a union that the value in the tree takes: conditions and
 * effects by their `type`, else the first branch that has the field asked for.
 */
function branch(schema: Schema, value: Node | undefined, field: string | number | undefined): Schema {
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (!options) return schema;
  const type = member(value, "type")?.value;
  const resolved = options.map((o) => resolve(o) ?? o);
  const byType = resolved.find((o) => {
    const t = (o.properties as Record<string, Schema> | undefined)?.type;
    return t?.const === type || (Array.isArray(t?.enum) && (t.enum as unknown[]).includes(type));
  });
  if (byType) return byType;
  return (
    resolved.find((o) => typeof field === "string" && (o.properties as Schema | undefined)?.[field]) ?? schema
  );
}

/** The schema of the field at a path of the world, following the tree for unions. */
export function fieldSchema(tree: Node | undefined, path: (string | number)[]): Schema | undefined {
  let schema = resolve(schemaRoot());
  for (let i = 0; i < path.length && schema; i++) {
    const segment = path[i]!;
    schema = branch(schema, nodeAt(tree, path.slice(0, i)), segment);
    if (typeof segment === "number") schema = resolve(schema.items as Schema | undefined);
    else {
      const properties = schema.properties as Record<string, Schema> | undefined;
      const extra = schema.additionalProperties;
      schema = resolve(properties?.[segment] ?? (typeof extra === "object" ? (extra as Schema) : undefined));
    }
  }
  return schema && branch(schema, nodeAt(tree, path), undefined);
}

/** A field's hover: its description (as docs/format.md has it), then its type, allowed values, range and example. */
export function fieldDoc(field: string, schema: Schema): string | undefined {
  const description = schema.description as string | undefined;
  if (!description) return undefined;
  const lines = [`**${field}**`, description];
  const facts: string[] = [];
  const type = schema.type ?? (schema.anyOf ? "one of several shapes" : undefined);
  if (type) facts.push(`Type: \`${Array.isArray(type) ? type.join(" | ") : String(type)}\``);
  if (Array.isArray(schema.enum))
    facts.push(`Values: ${(schema.enum as unknown[]).map((v) => `\`${String(v)}\``).join(", ")}`);
  if (schema.const !== undefined) facts.push(`Value: \`${String(schema.const)}\``);
  if (typeof schema.minimum === "number") facts.push(`Minimum: ${schema.minimum}`);
  if (typeof schema.maximum === "number") facts.push(`Maximum: ${schema.maximum}`);
  if (typeof schema.maxLength === "number") facts.push(`At most ${schema.maxLength} characters`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    facts.push(`Example: \`${JSON.stringify(schema.examples[0])}\``);
  if (facts.length) lines.push(facts.join(" · "));
  return lines.join("\n\n");
}
