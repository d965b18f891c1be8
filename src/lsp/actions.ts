import { type CodeAction, CodeActionKind, type Diagnostic, type TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { WorldDocument } from "./document.ts";
import { members, nodeAt } from "./names.ts";

/**
 * Quick fixes for the rules that say how to fix their problem: a did-you-mean
 * ("Did you mean "Brinewick Docks"?": the string becomes the suggestion), a
 * key and its `name` that differ (the name becomes the key), and a missing
 * required field (added with the example value its message gives, which
 * comes from the starter world or the schema).
 */
export function codeActionsFor(
  world: WorldDocument,
  document: TextDocument,
  diagnostics: Diagnostic[],
): CodeAction[] {
  const actions: CodeAction[] = [];
  const text = document.getText();
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== "taleforge") continue;
    const start = document.offsetAt(diagnostic.range.start);
    const fix = (title: string, edit: TextEdit, preferred = true) =>
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: preferred,
        edit: { changes: { [document.uri]: [edit] } },
      });
    const message = typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value;
    const suggestion = /Did you mean "((?:[^"\\]|\\.)*)"\?/.exec(message);
    if (suggestion && text[start] === '"') {
      const name = JSON.parse(`"${suggestion[1]}"`) as string;
      fix(`Change to ${JSON.stringify(name)}`, { range: diagnostic.range, newText: JSON.stringify(name) });
      continue;
    }
    const path = (diagnostic.data as { path?: (string | number)[] } | undefined)?.path ?? [];
    if (diagnostic.code === "keys/name-mismatch" && text[start] === '"') {
      const key = path[path.length - 2];
      if (typeof key === "string")
        fix(`Set the name to the key ${JSON.stringify(key)}`, {
          range: diagnostic.range,
          newText: JSON.stringify(key),
        });
      continue;
    }
    if (diagnostic.code === "shape/missing-field") {
      const example = /e\.g\. ("(?:[^"\\]|\\.)*": .*)\.$/.exec(message.split("\n")[0]!);
      const parent = nodeAt(world.tree, path.slice(0, -1));
      if (!example || parent?.type !== "object") continue;
      const field = path[path.length - 1];
      const insert = insertMember(text, parent, example[1]!);
      if (insert)
        fix(`Add "${String(field)}" with its example value`, {
          range: { start: document.positionAt(insert.at), end: document.positionAt(insert.at) },
          newText: insert.text,
        });
    }
  }
  return actions;
}

/** Text to add a member at the top of an object, indented as its first member is. */
function insertMember(
  text: string,
  object: { offset: number; length: number; children?: unknown[] },
  member: string,
) {
  const open = object.offset + 1;
  const first = members(object as never)[0]?.[0];
  if (!first) return { at: open, text: member };
  const lineStart = text.lastIndexOf("\n", first.offset) + 1;
  const indent = text.slice(lineStart, first.offset);
  const sameLine = !/^\s*$/.test(indent);
  return sameLine
    ? { at: first.offset, text: `${member}, ` }
    : { at: lineStart, text: `${indent}${member},\n` };
}
