import { z } from "zod";

/**
 * The meaning of a field of the format, in one place: the editor schema
 * (`taleforge schema`) and docs/format.md are generated from these
 * descriptions, and a test checks that every field has one. A description
 * says what the field does in play, its unit and range, and its default when
 * it is optional.
 *
 * The description is registered on the schema itself, which every caller
 * makes on the spot for this one field: zod's `.meta()` would return a copy,
 * and those copies were 474 of the 1124 schemas built at start-up, some 40%
 * of what `check` spent building the format (docs/benchmarks.md, issue 13).
 * A schema already described (one shared by several fields) still gets
 * zod's copy, so that each field keeps its own description. A schema made
 * once and used by several fields must be made per field (a function, as
 * `strings` in world.ts): a test compares every schema's JSON Schema with
 * the one zod's copies give (`COPIES`), so a description that reaches a
 * field it was not written for fails it.
 */
/** zod's copies, as `.meta()` makes them: set only by describe.test.ts, in a process of its own. */
const COPIES = typeof process !== "undefined" && process.env.TALEFORGE_DESCRIBE_COPIES === "1";

export function describe<T extends z.ZodType>(schema: T, description: string, examples?: unknown[]): T {
  const meta = { description, ...(examples ? { examples } : {}) };
  if (COPIES || z.globalRegistry.has(schema)) return schema.meta(meta) as T;
  z.globalRegistry.add(schema, meta);
  return schema;
}

/** The sentence every name-keyed record's `name` shares. */
export const NAME_RULE =
  "Must equal the record's key in its map, byte for byte: same case, same spaces (keys/name-mismatch).";

export const EMBEDDING_ID =
  "Assigned by the engine that computes embeddings; leave it out when authoring. Taleforge keeps it and does not use it.";

export const KNOWN = (defaultValue: boolean) =>
  `Whether the players know it at the start of a game. Unknown places cannot be travelled to by name and are drawn as unknown on maps; \`known-entity\` effects change it during play. Default: ${defaultValue}.`;

export const HIDDEN_INFO =
  "Secret information for the author and for tools; it never reaches the narrator or the players (docs/prompts.md). Optional.";

export const IMAGE_URL =
  "An image URL (banner or map picture) for interfaces that show one. Not used by Taleforge. Optional.";

export const UNUSED =
  "Taleforge keeps this setting for V33 hosts that read it; its engine does not use it yet.";
