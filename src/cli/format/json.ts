import type { CheckedWorld } from "./checked.ts";

/**
 * The machine-readable report (docs/json-output.md): exactly these keys, in
 * this order, so that scripts can rely on them. Related positions are left
 * out on purpose: SARIF carries them for tools that want them.
 */
export function formatJson(checked: CheckedWorld): string {
  const report = {
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
  return `${JSON.stringify(report)}\n`;
}
