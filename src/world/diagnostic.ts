/**
 * One shape for every problem the toolkit reports, modelled on TypeScript's
 * Diagnostic: a stable readable code, a severity, a message that says what to
 * do, the JSON path from the root, and the source position (1-based), plus
 * related positions ("key here, name there").
 */

export type Severity = "error" | "warning";
export type JsonPath = (string | number)[];

export interface Related {
  message: string;
  path: JsonPath;
  line: number | null;
  column: number | null;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  path: JsonPath;
  line: number | null;
  column: number | null;
  related?: Related[];
}

/** How many of the diagnostics carry each code, in the order the codes first appear. */
export function countByCode(diagnostics: readonly Pick<Diagnostic, "code">[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  return counts;
}

/** A counted code as summaries list it: `quest/no-init-trigger ×4`, or the code alone when it appears once. */
export function formatCodeCount(code: string, count: number): string {
  return count > 1 ? `${code} ×${count}` : code;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === "error") errors++;
    else warnings++;
  }
  return { errors, warnings };
}

/** Source order first (unpositioned last), then code: stable output for golden tests. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort(
    (a, b) =>
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}

/** Renders a path the way authors read it: `triggers["open gate"].conditions[0]`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out || "(root)";
}

/** Where a problem is, as editors and terminals link it: `file:line:column`, or the file alone when unpositioned. */
export function formatPosition(file: string, at: Pick<Related, "line" | "column">): string {
  return at.line === null ? file : `${file}:${at.line}:${at.column ?? 1}`;
}
