import type { Diagnostic } from "../../world/diagnostic.ts";
import type { CodeInfo } from "../../world/rule.ts";
import type { SourceFile } from "../../world/source.ts";

/** One checked world file: what every formatter renders. */
export interface CheckedWorld {
  /** The path as given on the command line, or `<stdin>`. */
  file: string;
  /** The text, for code frames; absent when the file could not be read. */
  source: SourceFile | undefined;
  diagnostics: readonly Diagnostic[];
  errorCount: number;
  warningCount: number;
}

export interface FormatContext {
  color: boolean;
  tool: { name: string; version: string };
  /** Every code the checker can report, for SARIF's rule table (empty for the formats that print none). */
  catalogue: readonly CodeInfo[];
}

/** A pure function from a checked world to the text printed on stdout. */
export type Formatter = (checked: CheckedWorld, context: FormatContext) => string;
