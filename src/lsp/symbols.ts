import type { Node } from "jsonc-parser";
import { type DocumentSymbol, SymbolKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { KIND_LABELS, members, SECTION_KINDS } from "./names.ts";

/** The outline: one symbol per section, its records under it (areas under locations, objectives under quests). */
export function documentSymbols(tree: Node | undefined, document: TextDocument): DocumentSymbol[] {
  const range = (node: Node) => ({
    start: document.positionAt(node.offset),
    end: document.positionAt(node.offset + node.length),
  });
  const symbol = (
    key: Node,
    kind: SymbolKind,
    detail?: string,
    children?: DocumentSymbol[],
  ): DocumentSymbol => ({
    name: String(key.value) || '""',
    detail,
    kind,
    range: range(key.parent ?? key),
    selectionRange: range(key),
    children,
  });
  const out: DocumentSymbol[] = [];
  for (const [key, value] of members(tree)) {
    const section = String(key.value);
    const kind = SECTION_KINDS[section];
    if (!kind) {
      out.push(symbol(key, value?.type === "object" ? SymbolKind.Namespace : SymbolKind.Property));
      continue;
    }
    const records = members(value).map(([k, v]) => {
      const nested =
        section === "locations"
          ? members(child(v, "areas")).map(([a]) => symbol(a, SymbolKind.Field, "area"))
          : section === "quests"
            ? members(child(v, "objectives")).map(([o]) => symbol(o, SymbolKind.Field, "objective"))
            : undefined;
      return symbol(
        k,
        SYMBOL_KINDS[kind] ?? SymbolKind.Object,
        KIND_LABELS[kind],
        nested?.length ? nested : undefined,
      );
    });
    out.push(symbol(key, SymbolKind.Namespace, `${records.length}`, records));
  }
  return out;
}

function child(node: Node | undefined, key: string): Node | undefined {
  return members(node).find(([k]) => k.value === key)?.[1];
}

const SYMBOL_KINDS: Partial<Record<string, SymbolKind>> = {
  trigger: SymbolKind.Function,
  quest: SymbolKind.Class,
  location: SymbolKind.Module,
  npc: SymbolKind.Object,
  item: SymbolKind.Constant,
  event: SymbolKind.Event,
};
