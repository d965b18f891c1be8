import { type Paint, painter, plural } from "../../author/paint.ts";
import { type Diagnostic, formatPosition } from "../../world/diagnostic.ts";
import { codeFrame } from "../../world/source.ts";
import { escapeControls } from "../../world/terminal-text.ts";
import type { CheckedWorld, FormatContext } from "./checked.ts";

/**
 * Compiler-style text for people: one headline per problem
 * (`file:line:col  severity  code  message`), the source around it, its
 * related positions, and a closing count.
 */
export function formatStylish(checked: CheckedWorld, context: Pick<FormatContext, "color">): string {
  const paint = painter(context.color);
  const blocks = checked.diagnostics.map((d) => describe(d, checked, paint));
  return [...blocks, summary(checked, paint)].join("\n\n").concat("\n");
}

function describe(d: Diagnostic, checked: CheckedWorld, paint: Paint): string {
  const severity = d.severity === "error" ? paint("red", "error") : paint("yellow", "warning");
  const lines = [
    // Keys, values, file names and source lines are the author's text: never printed raw (terminal-text.ts).
    `${paint("bold", escapeControls(formatPosition(checked.file, d)))}  ${severity}  ${paint("gray", d.code)}  ${escapeControls(d.message)}`,
  ];
  if (checked.source && d.line !== null && d.column !== null) {
    const frame = escapeControls(codeFrame(checked.source, d.line, d.column));
    // Only the caret line (an empty gutter, then spaces and "^") is coloured, never the source text.
    const caretLine = /^( +\| *)\^$/;
    for (const line of frame.split("\n"))
      lines.push(`  ${line.replace(caretLine, (_all, gutter: string) => `${gutter}${paint("red", "^")}`)}`);
  }
  for (const related of d.related ?? [])
    lines.push(
      `  ↳ ${paint("bold", escapeControls(formatPosition(checked.file, related)))}  ${escapeControls(related.message)}`,
    );
  return lines.join("\n");
}

function summary(checked: CheckedWorld, paint: Paint): string {
  const { errorCount: errors, warningCount: warnings } = checked;
  if (errors + warnings === 0) return paint("green", "✔ no problems");
  const text = `✖ ${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  return paint(["bold", errors > 0 ? "red" : "yellow"], text);
}
