import { z } from "zod";
import { World } from "./schema/world.ts";

/** What an editor shows on a field the format does not define: allowed, as `check` allows it, and marked. */
export const UNKNOWN_FIELD_SCHEMA = {
  description:
    "Not a field of the V33 format: Taleforge keeps it (and saves it back) but ignores it, and `taleforge check` warns about it (shape/unknown-field). Check its spelling.",
  deprecated: true,
  deprecationMessage:
    "Not a field of the V33 format (taleforge check: shape/unknown-field). Check its spelling.",
} as const;

type Json = Record<string, unknown>;

/**
 * The JSON Schema (draft 2020-12) of the world format, for editors, generated
 * from the zod schemas `check` uses, descriptions included, so it cannot
 * drift. It allows what `check` allows: unknown fields (a warning in check)
 * are allowed and marked deprecated, which editors show as a warning; the
 * fields older exports omit and `check` fills in (`gameModes`,
 * `skillSettings.newSkillGenerationEnabled`) are optional; a trait needs
 * `traitNarrativeEffects` or the older `quirk`. `check` goes further than any
 * JSON Schema can: references, conditions, effects, limits.
 */
export function worldJsonSchema(): Json {
  const { $schema, ...rest } = z.toJSONSchema(World) as Json;
  const schema: Json = {
    $schema,
    title: "Taleforge world (V33 format)",
    description:
      "A V33 world file. Every field is described in docs/format.md. `taleforge check` checks far more than this schema: references, conditions, effects, limits.",
    ...rest,
  };
  allowUnknownFields(schema);
  const properties = schema.properties as Record<string, Json>;
  optional(schema, "gameModes");
  optional(properties.skillSettings!, "newSkillGenerationEnabled");
  const trait = ((properties.traits as Json).additionalProperties ?? {}) as Json;
  if (optional(trait, "traitNarrativeEffects"))
    trait.anyOf = [{ required: ["traitNarrativeEffects"] }, { required: ["quirk"] }];
  return schema;
}

/** Every `additionalProperties: false` becomes the marked allowance, everywhere in the tree. */
function allowUnknownFields(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) allowUnknownFields(child);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const object = node as Json;
  if (object.additionalProperties === false) object.additionalProperties = { ...UNKNOWN_FIELD_SCHEMA };
  for (const child of Object.values(object)) allowUnknownFields(child);
}

/** Removes a key from an object schema's `required`; says whether it was there. */
function optional(object: Json, key: string): boolean {
  const required = object.required as string[] | undefined;
  if (!required?.includes(key)) return false;
  object.required = required.filter((k) => k !== key);
  return true;
}
