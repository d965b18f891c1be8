import { checkReport } from "../../host/check-report.ts";
import type { CheckedWorld } from "./checked.ts";

/** The machine-readable report (docs/json-output.md); the server refuses an upload with the same one. */
export function formatJson(checked: CheckedWorld): string {
  return `${JSON.stringify(checkReport(checked))}\n`;
}
