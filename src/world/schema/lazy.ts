/**
 * The format's zod schemas for code on the way of `taleforge check` that needs
 * them only when a world has a problem (the issues of a record that fails, a
 * missing field's hint, an effect value of the wrong type): a valid world is
 * checked against plans made from the schemas at build time (check-table.ts).
 *
 * Here the schemas are imported as anywhere else. The fast start's script
 * (dist/check-cli.cjs, scripts/build.ts) has this module replaced by one that
 * loads them on the first call instead (`LAZY_SCHEMAS` there): building zod's
 * modules and the format's schemas cost a check some 53 M instructions, at
 * start, for a world that never needed them (docs/benchmarks.md).
 */
import * as schemas from "./index.ts";

export type FormatSchemas = typeof schemas;

export function formatSchemas(): FormatSchemas {
  return schemas;
}
