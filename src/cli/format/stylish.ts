import { styleText } from "node:util";
import type { Diagnostic, Related } from "../../world/diagnostic.ts";
import { codeFrame } from "../../world/source.ts";
import type { CheckedWorld, FormatContext } from "./checked.ts";

type Style = Parameters<typeof styleText>[0];
type Paint = (style: Style, text: string) => string;

/**
 * Compiler-style text for people: one headline per problem
 * (`file:line:col  severity  code  message`), the source around it, its
 * related positions, and a closing count.
 */
export function formatStylish(checked: CheckedWorld, context: Pick<FormatContext, "color">): string {
  // The caller decided about colour (TTY, NO_COLOR); styleText must not decide again from process.stdout.
  const paint = (style: Style, text: string) =>
    context.color ? styleText(style, text, { validateStream: false }) : text;
  const blocks = checked.diagnostics.map((d) => describe(d, checked, paint));
  return [...blocks, summary(checked, paint)].join("\n\n").concat("\n");
}

function describe(d: Diagnostic, checked: CheckedWorld, paint: Paint): string {
  const severity = d.severity === "error" ? paint("red", "error") : paint("yellow", "warning");
  const lines = [
    `${paint("bold", where(checked.file, d))}  ${severity}  ${paint("gray", d.code)}  ${d.message}`,
  ];
  if (checked.source && d.line !== null && d.column !== null) {
    const frame = codeFrame(checked.source, d.line, d.column);
    // Only the caret line (an empty gutter, then spaces and "^") is coloured, never the source text.
    const caretLine = /^( +\| *)\^$/;
    for (const line of frame.split("\n"))
      lines.push(`  ${line.replace(caretLine, (_all, gutter: string) => `${gutter}${paint("red", "^")}`)}`);
  }
  for (const related of d.related ?? [])
    lines.push(`  ↳ ${paint("bold", where(checked.file, related))}  ${related.message}`);
  return lines.join("\n");
}

function where(file: string, at: Pick<Related, "line" | "column">): string {
  return at.line === null ? file : `${file}:${at.line}:${at.column ?? 1}`;
}

function summary(checked: CheckedWorld, paint: Paint): string {
  const { errorCount: errors, warningCount: warnings } = checked;
  if (errors + warnings === 0) return paint("green", "✔ no problems");
  const text = `✖ ${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  return paint(["bold", errors > 0 ? "red" : "yellow"], text);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
