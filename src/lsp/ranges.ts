import {
  type Diagnostic,
  type DiagnosticRelatedInformation,
  DiagnosticSeverity,
  type Range,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic as WorldDiagnostic } from "../world/diagnostic.ts";
import { formatPath } from "../world/diagnostic.ts";

/**
 * The token that starts at `offset`: a whole string (quotes included), a
 * number or a literal; one character for a bracket. A diagnostic says where
 * its problem starts (line and column); the token there is what an editor
 * underlines, found without a syntax tree.
 */
export function tokenEnd(text: string, offset: number): number {
  const ch = text[offset];
  if (ch === '"') {
    for (let i = offset + 1; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") i++;
      else if (c === '"') return i + 1;
      else if (c === "\n") return i;
    }
    return text.length;
  }
  if (ch !== undefined && /[-0-9a-zA-Z.+]/.test(ch)) {
    let i = offset;
    while (i < text.length && /[-0-9a-zA-Z.+_]/.test(text[i]!)) i++;
    return i;
  }
  return Math.min(offset + 1, text.length);
}

/** The range of the token at a 1-based line and column; the file's first character when unpositioned. */
export function rangeAt(document: TextDocument, line: number | null, column: number | null): Range {
  if (line === null) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const start = { line: line - 1, character: (column ?? 1) - 1 };
  const offset = document.offsetAt(start);
  const end = tokenEnd(document.getText(), offset);
  return { start, end: document.positionAt(Math.max(end, offset)) };
}

/** A checker's diagnostic as the protocol carries it: code, exact range, the JSON path, related positions. */
export function toLspDiagnostic(document: TextDocument, d: WorldDiagnostic): Diagnostic {
  const related: DiagnosticRelatedInformation[] = (d.related ?? []).map((r) => ({
    location: { uri: document.uri, range: rangeAt(document, r.line, r.column) },
    message: r.message,
  }));
  return {
    range: rangeAt(document, d.line, d.column),
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: "taleforge",
    message: d.path.length > 0 ? `${d.message}\n(at ${formatPath(d.path)})` : d.message,
    relatedInformation: related.length > 0 ? related : undefined,
    data: { path: d.path },
  };
}
