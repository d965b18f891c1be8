import type { Formatter } from "./checked.ts";
import { formatJson } from "./json.ts";
import { formatSarif } from "./sarif.ts";
import { formatStylish } from "./stylish.ts";

export const FORMATTERS = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
} as const satisfies Record<string, Formatter>;

export type FormatName = keyof typeof FORMATTERS;

export const FORMAT_NAMES = Object.keys(FORMATTERS) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATTERS, name);
}
