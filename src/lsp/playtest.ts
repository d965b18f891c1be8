import { type Diagnostic, DiagnosticSeverity } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { parsePlaytest } from "../author/playtest/index.ts";
import { fileNameOf } from "./document.ts";
import { rangeAt } from "./ranges.ts";

/** A play-test file's problems (`taleforge test` reports the same before it runs anything), as diagnostics. */
export function playtestDiagnostics(document: TextDocument): Diagnostic[] {
  const loaded = parsePlaytest(document.getText(), fileNameOf(document.uri));
  return loaded.problems.map((p) => ({
    range: rangeAt(document, p.line, p.column),
    severity: DiagnosticSeverity.Error,
    code: p.code,
    source: "taleforge",
    message: p.message,
    data: { path: p.path },
  }));
}
