import type { Diagnostic, JsonPath, Severity } from "./diagnostic.ts";
import type { SectionName, World } from "./schema/world.ts";

/**
 * A catalogue entry: one stable code with its severity, its wording and its
 * documentation. Rules add a `check`; codes raised by the loader and the shape
 * step are entries without one. docs/rules.md is generated from these.
 */
export interface CodeInfo<M extends string = string> {
  code: string;
  severity: Severity;
  /** One sentence: what is checked. */
  description: string;
  /** Why it matters to an author, in a few sentences. */
  why: string;
  /** Message templates with `{named}` placeholders. Each says what to do. */
  messages: Record<M, string>;
  /** Examples for the docs, as patches merged onto the base world (docs/rules.md). */
  examples?: { bad: WorldPatch; good: WorldPatch };
}

/** A deep-partial world: objects merge, anything else replaces; `undefined` deletes. */
export type WorldPatch = { [key: string]: unknown };

export interface Report<M extends string = string> {
  path: JsonPath;
  messageId: M;
  data?: Record<string, string | number>;
  /** Point at the property key rather than its value. */
  atKey?: boolean;
  related?: { path: JsonPath; message: string }[];
}

export interface RuleContext<M extends string = string> {
  /** Only records whose shape is valid; frozen. Sections that failed shape hold defaults. */
  readonly world: World;
  /** The whole loaded value as written (after compatibility normalisation); frozen. */
  readonly raw: Readonly<Record<string, unknown>>;
  /**
   * The JSON text `raw` was parsed from, when there is one: a rule may read it to rule out a finding
   * without walking the world (text/control-characters), never to find one.
   */
  readonly text?: string;
  /** Whether a top-level section passed its shape check (so settings-based rules can trust it). */
  sectionValid(section: SectionName): boolean;
  report(report: Report<M>): void;
}

export interface Rule<M extends string = string> extends CodeInfo<M> {
  check(context: RuleContext<M>): void;
}

export function defineCode<M extends string>(info: CodeInfo<M>): CodeInfo<M> {
  return info;
}

export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}

/** Fills `{name}` placeholders; an unknown placeholder is kept visibly. */
export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in data ? String(data[key]) : whole));
}

export function diagnosticFrom(
  info: CodeInfo,
  report: Report,
  locate: (path: JsonPath, atKey: boolean) => { line: number; column: number } | null,
): Diagnostic {
  const template = (info.messages as Record<string, string>)[report.messageId];
  if (template === undefined) throw new Error(`${info.code}: unknown messageId ${report.messageId}`);
  const position = locate(report.path, report.atKey ?? false);
  const diagnostic: Diagnostic = {
    code: info.code,
    severity: info.severity,
    message: formatMessage(template, report.data),
    path: report.path,
    line: position?.line ?? null,
    column: position?.column ?? null,
  };
  if (report.related?.length) {
    diagnostic.related = report.related.map((r) => {
      const at = locate(r.path, false);
      return { message: r.message, path: r.path, line: at?.line ?? null, column: at?.column ?? null };
    });
  }
  return diagnostic;
}
