import { getLocation, type Node } from "jsonc-parser";
import {
  type CompletionItem,
  CompletionItemKind,
  type CompletionList,
  type Position,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { WorldDocument } from "./document.ts";
import { jsonDocumentOf, jsonService } from "./json-service.ts";
import { areaScope, KIND_LABELS, type NameKind, nodeAt, referenceKindAt } from "./names.ts";

/** The script sandbox's globals (docs/scripts.md, "Globals"), offered inside a trigger's `script`. */
export const SCRIPT_GLOBALS: readonly { name: string; detail: string }[] = [
  { name: "check", detail: "check(condition): reads the state through a condition object" },
  { name: "storage", detail: "plain object persisted across turns; the store read-*/write-* use" },
  { name: "effects", detail: "the trigger's typed effects, pre-filled: push, replace or truncate" },
  { name: "skip", detail: "set true: no effects apply and the trigger does not count as fired" },
  { name: "triggers", detail: "the whole trigger map: read, change, add or delete triggers" },
  { name: "info", detail: '{ engineVersion: 33, semanticVersion: "33.0.0" }' },
  { name: "log", detail: "log(...): writes to the game log, prefixed with the trigger name" },
  { name: "console", detail: "console.log/info/warn/error: as log" },
];

const ENTITY: NameKind[] = ["realm", "region", "location", "faction", "npc"];

/**
 * Completion: inside a string that holds a name, the names of that kind the
 * world defines; inside a trigger's script, the sandbox's globals and the
 * storage keys the world uses; everywhere else, field names and enum values
 * from the schema (the JSON language service).
 */
export async function completionAt(
  world: WorldDocument,
  document: TextDocument,
  position: Position,
): Promise<CompletionList> {
  const offset = document.offsetAt(position);
  const text = document.getText();
  const location = getLocation(text, offset);
  const path = location.path;
  const tree = world.tree;
  if (tree && !location.isAtPropertyKey && typeof path[path.length - 1] !== "undefined") {
    const holder = nodeAt(tree, path);
    // A script: globals and storage keys.
    if (path.length === 3 && path[0] === "triggers" && path[2] === "script" && holder?.type === "string")
      return { isIncomplete: false, items: scriptItems(world, text, offset) };
    const kind = referenceKindAt(tree, path);
    if (kind === "objective")
      return { isIncomplete: false, items: objectiveItems(world, tree, path, holder, document, offset) };
    // An area in the scope of a location (an NPC's currentArea, a path): that location's areas only.
    const scoped =
      kind === "area" ? scopedAreaItems(world, areaScope(tree, path) ?? [], holder, document, offset) : [];
    if (scoped.length > 0) return { isIncomplete: false, items: scoped };
    if (kind && (!holder || holder.type === "string"))
      return { isIncomplete: false, items: nameItems(world, kind, holder, document, offset) };
  }
  const list = await jsonService().doComplete(document, position, jsonDocumentOf(document));
  return list ?? { isIncomplete: false, items: [] };
}

/** The objectives of the quest the field belongs to: its record's, or its sibling `questId`'s. */
function objectiveItems(
  world: WorldDocument,
  tree: Node,
  path: (string | number)[],
  holder: Node | undefined,
  document: TextDocument,
  offset: number,
): CompletionItem[] {
  const quest =
    path[0] === "quests" ? String(path[1]) : nodeAt(tree, [...path.slice(0, -1), "questId"])?.value;
  const prefix = `objective:${String(quest)}/`;
  const names = [...world.names.byId]
    .filter(([id, all]) => id.startsWith(prefix) && all.some((o) => o.role === "key"))
    .map(([id]) => id.slice(prefix.length));
  return stringItems(names, "objective", holder, document, offset);
}

/** The areas of the given locations, in text order (a name shared by two of them once). */
function scopedAreaItems(
  world: WorldDocument,
  locations: readonly string[],
  holder: Node | undefined,
  document: TextDocument,
  offset: number,
): CompletionItem[] {
  const names = new Set<string>();
  for (const o of world.names.occurrences)
    if (o.kind === "area" && o.role === "key" && locations.includes(String(o.path[1]))) names.add(o.name);
  return stringItems([...names], "area", holder, document, offset);
}

function nameItems(
  world: WorldDocument,
  kind: NameKind | "entity",
  holder: Node | undefined,
  document: TextDocument,
  offset: number,
): CompletionItem[] {
  const kinds = kind === "entity" ? ENTITY : [kind];
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const k of kinds)
    for (const name of world.names.names.get(k) ?? [])
      if (!seen.has(name)) {
        seen.add(name);
        items.push(...stringItems([name], k, holder, document, offset));
      }
  return items;
}

/** Completion items that write each name as a JSON string, replacing the string the cursor is in. */
function stringItems(
  names: string[],
  kind: NameKind,
  holder: Node | undefined,
  document: TextDocument,
  offset: number,
): CompletionItem[] {
  const items: CompletionItem[] = [];
  // Replace the whole string the cursor is in, quotes included, so that a name is never doubled.
  const range =
    holder?.type === "string" && offset > holder.offset && offset < holder.offset + holder.length
      ? { start: document.positionAt(holder.offset), end: document.positionAt(holder.offset + holder.length) }
      : undefined;
  for (const name of names) {
    const insert = JSON.stringify(name);
    items.push({
      label: name,
      kind: kind === "storage" ? CompletionItemKind.Variable : CompletionItemKind.Reference,
      detail: KIND_LABELS[kind],
      filterText: insert,
      ...(range ? { textEdit: { range, newText: insert } } : { insertText: insert }),
    });
  }
  return items;
}

function scriptItems(world: WorldDocument, text: string, offset: number): CompletionItem[] {
  // After `storage.`: the storage keys; else the globals.
  const before = text.slice(Math.max(0, offset - 64), offset);
  if (/\bstorage\.\w*$/.test(before))
    return (world.names.names.get("storage") ?? [])
      .filter((k) => /^[A-Za-z_$][\w$]*$/.test(k))
      .map((name) => ({
        label: name,
        kind: CompletionItemKind.Field,
        detail: "storage key",
      }));
  return SCRIPT_GLOBALS.map((g) => ({ label: g.name, kind: CompletionItemKind.Variable, detail: g.detail }));
}
