import {
  type Location,
  type Position,
  type Range,
  ResponseError,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { WorldDocument } from "./document.ts";
import { KIND_LABELS, type Occurrence, occurrenceAt } from "./names.ts";

/**
 * Go to definition, find references and rename, over the name index: a
 * name's definition is its record's key; its references are every field
 * that holds it and every script literal equal to it.
 */
function rangeOf(document: TextDocument, o: Occurrence): Range {
  return { start: document.positionAt(o.offset), end: document.positionAt(o.offset + o.length) };
}

export function definitionAt(world: WorldDocument, document: TextDocument, position: Position): Location[] {
  const at = occurrenceAt(world.names, document.offsetAt(position));
  if (!at) return [];
  const all = world.names.byId.get(at.id) ?? [];
  // A storage key has no definition: its writes stand for it.
  const targets =
    at.kind === "storage"
      ? all.filter((o) => o.path[2] === "effects" || o.quote === ".")
      : all.filter((o) => o.role === "key");
  return targets.map((o) => ({ uri: document.uri, range: rangeOf(document, o) }));
}

export function referencesAt(
  world: WorldDocument,
  document: TextDocument,
  position: Position,
  includeDeclaration: boolean,
): Location[] {
  const at = occurrenceAt(world.names, document.offsetAt(position));
  if (!at) return [];
  return (world.names.byId.get(at.id) ?? [])
    .filter((o) => includeDeclaration || (o.role !== "key" && o.role !== "name"))
    .map((o) => ({ uri: document.uri, range: rangeOf(document, o) }));
}

export function prepareRenameAt(world: WorldDocument, document: TextDocument, position: Position) {
  const at = occurrenceAt(world.names, document.offsetAt(position));
  if (!at) return null;
  return { range: rangeOf(document, at), placeholder: at.name };
}

/** Maximum length of a new name: far above any real key, and bounded. */
const MAX_NAME = 500;

export function renameAt(
  world: WorldDocument,
  document: TextDocument,
  position: Position,
  newName: string,
): WorkspaceEdit {
  const at = occurrenceAt(world.names, document.offsetAt(position));
  if (!at)
    throw new ResponseError(
      -32602,
      "There is no name here to rename: put the cursor on a key, a name field or a reference.",
    );
  if (newName.length === 0 || newName.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(newName))
    throw new ResponseError(-32602, `A name must be 1 to ${MAX_NAME} characters without control characters.`);
  const all = world.names.byId.get(at.id) ?? [];
  const label = KIND_LABELS[at.kind];
  if (at.kind !== "storage" && at.kind !== "objective") {
    // An area's name is taken only in its own location (areaId: "area:location NUL name").
    const scope = at.kind === "area" ? at.id.slice(0, at.id.indexOf("\u0000") + 1) : `${at.kind}:`;
    const taken = world.names.byId.get(`${scope}${newName}`)?.some((o) => o.role === "key");
    if (taken)
      throw new ResponseError(
        -32602,
        `A ${label} named ${JSON.stringify(newName)} already exists: pick another name.`,
      );
  }
  const text = document.getText();
  const edits: TextEdit[] = [];
  for (const o of all) {
    const range = rangeOf(document, o);
    if (o.role !== "script") edits.push({ range, newText: JSON.stringify(newName) });
    else if (o.quote !== "." || IDENTIFIER.test(newName))
      edits.push({ range, newText: asJsonContent(scriptLiteral(o.quote, newName)) });
    else {
      // `storage.x` to a key that is no identifier: `storage["new key"]` (after `?.`, `storage?.["new key"]`).
      const dot = text[o.offset - 1] === "." && text[o.offset - 2] !== "?";
      const start = dot ? document.positionAt(o.offset - 1) : range.start;
      edits.push({
        range: { start, end: range.end },
        newText: asJsonContent(`[${JSON.stringify(newName)}]`),
      });
    }
  }
  return { changes: { [document.uri]: edits } };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A name as a script writes it: a JavaScript string with the quote it had, or the bare identifier after `storage.`. */
function scriptLiteral(quote: string | undefined, newName: string): string {
  if (quote === ".") return newName;
  if (quote === "'") return `'${newName.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  return JSON.stringify(newName);
}

/** JavaScript text as the content of the JSON string that holds the script. */
function asJsonContent(js: string): string {
  return JSON.stringify(js).slice(1, -1);
}
