import type { z } from "zod";
import { type CheckRoots, type CheckTable, rootsOf } from "./check-table.ts";
import { formatSchemas } from "./schema/lazy.ts";

/**
 * What check-plans.ts reads its plans from: in the sources, the schemas
 * themselves (their plans are made from them as they are asked for, by
 * shape-plan.ts). The fast start's script has this module replaced by the
 * check table made from the same schemas at build time, as JSON (`lazySchemas`
 * in scripts/build.ts), so that a check of a valid world builds no schema.
 */
export function checkSource(): CheckRoots<z.ZodType> | CheckTable {
  return rootsOf(formatSchemas());
}
