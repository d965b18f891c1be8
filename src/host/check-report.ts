import type { Diagnostic } from "../world/diagnostic.ts";

/** What a check of one world file found: the CLI's checked world and the server's upload both have it. */
export interface CheckCounts {
  file: string;
  errorCount: number;
  warningCount: number;
  diagnostics: readonly Diagnostic[];
}

/**
 * The machine-readable report of `taleforge check --format json` (docs/json-output.md),
 * also the body of a refused world upload: exactly these keys, in this order, so that
 * scripts and the browser can rely on them. Related positions are left out on purpose:
 * SARIF carries them for tools that want them.
 */
export function checkReport(checked: CheckCounts) {
  return {
    file: checked.file,
    errorCount: checked.errorCount,
    warningCount: checked.warningCount,
    diagnostics: checked.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      path: d.path,
      line: d.line,
      column: d.column,
    })),
  };
}

export type CheckReport = ReturnType<typeof checkReport>;
