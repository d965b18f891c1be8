import { writeFile } from "node:fs/promises";
import { worldJsonSchema } from "../world/json-schema.ts";
import { EXIT_OK, fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface SchemaOptions {
  /** Write to this file instead of stdout. */
  output?: string;
}

/**
 * `taleforge schema`: the JSON Schema (draft 2020-12) of the world format, for
 * editors, with a description of every field (src/world/json-schema.ts). It
 * is generated from the same zod schemas the checker uses, so it cannot
 * drift; the checker's rules go further than any JSON Schema can.
 */
export async function schema(options: SchemaOptions, io: CliIo): Promise<number> {
  const text = `${JSON.stringify(worldJsonSchema(), null, 2)}\n`;
  if (options.output === undefined) {
    io.stdout(text);
    return EXIT_OK;
  }
  try {
    await writeFile(options.output, text);
  } catch (error) {
    return fail(
      io,
      `cannot write ${options.output}: ${reasonOf(error)}. Check that its folder exists and is writable.`,
    );
  }
  io.stdout(`Wrote the world JSON Schema to ${options.output}\n`);
  return EXIT_OK;
}

export { worldJsonSchema } from "../world/json-schema.ts";
