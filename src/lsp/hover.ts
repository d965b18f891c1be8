import { getLocation, type Node } from "jsonc-parser";
import type { Hover, Position } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { formatPath } from "../world/diagnostic.ts";
import { analyse, describeCondition, whyActorNever } from "../world/lint/analysis.ts";
import { escapeControls } from "../world/terminal-text.ts";
import type { WorldDocument } from "./document.ts";
import { fieldDoc, fieldSchema } from "./field-docs.ts";
import { jsonDocumentOf, jsonService } from "./json-service.ts";
import { KIND_LABELS, member, type NameIndex, type Occurrence, occurrenceAt } from "./names.ts";

/**
 * Hover: on a name (a key, a `name` field or a reference), what it is and
 * where it is defined; on a trigger's key, its conditions and effects one
 * line each and whether lint finds that it can fire; on anything else, the
 * field's description from the format (the JSON Schema's, as in docs/format.md).
 */
export async function hoverAt(
  world: WorldDocument,
  document: TextDocument,
  position: Position,
): Promise<Hover | null> {
  const offset = document.offsetAt(position);
  const occurrence = occurrenceAt(world.names, offset);
  if (occurrence) {
    const lines = [nameHover(world.names, document, occurrence)];
    if (occurrence.kind === "trigger") lines.push(triggerHover(world, occurrence.name));
    return {
      contents: { kind: "markdown", value: lines.filter(Boolean).join("\n\n") },
      range: {
        start: document.positionAt(occurrence.offset),
        end: document.positionAt(occurrence.offset + occurrence.length),
      },
    };
  }
  // A field: its documentation from the format's schema, found by the path under the cursor.
  const location = getLocation(document.getText(), offset);
  const field = location.path[location.path.length - 1];
  if (typeof field === "string" && location.path[0] !== undefined) {
    const schema = fieldSchema(world.tree, location.path);
    const doc = schema && fieldDoc(field, schema);
    if (doc) return { contents: { kind: "markdown", value: doc } };
  }
  const hover = await jsonService().doHover(document, position, jsonDocumentOf(document));
  return hover ?? null;
}

function nameHover(index: NameIndex, document: TextDocument, o: Occurrence): string {
  const all = index.byId.get(o.id) ?? [];
  const definition = all.find((x) => x.role === "key");
  const label = KIND_LABELS[o.kind];
  const head = `**${label}** \`${escapeControls(o.name)}\``;
  const uses = all.filter((x) => x.role === "ref" || x.role === "script").length;
  if (o.kind === "storage") {
    const places = all.length;
    return `${head}\n\nA storage key (the store \`read-*\`/\`write-*\` and scripts share), used in ${places} place${places === 1 ? "" : "s"}.`;
  }
  if (!definition) return `${head}\n\nNot defined in this world: no ${label} has this key.`;
  const at = document.positionAt(definition.offset);
  return `${head}\n\nDefined at \`${formatPath(definition.path)}\` (line ${at.line + 1}); referenced in ${uses} place${uses === 1 ? "" : "s"}.`;
}

/** A trigger's conditions and effects, one line each, and lint's verdict on whether it can fire. */
function triggerHover(world: WorldDocument, key: string): string {
  const record = member(member(world.tree, "triggers"), key);
  const lines: string[] = [];
  const describe = (node: Node): string => {
    const value = nodeValue(node);
    if (!value || typeof value !== "object") return JSON.stringify(value);
    const { type, operator, value: v, ...rest } = value as Record<string, unknown>;
    const fields = Object.entries(rest)
      .filter(([, x]) => typeof x === "string" || typeof x === "number" || typeof x === "boolean")
      .map(([k, x]) => `${k}=${JSON.stringify(x)}`);
    return [type, ...fields, operator, v === undefined ? undefined : JSON.stringify(v)]
      .filter((x) => x !== undefined)
      .join(" ");
  };
  const conditions = member(record, "conditions")?.children ?? [];
  const effects = member(record, "effects")?.children ?? [];
  lines.push(
    conditions.length
      ? `Conditions (all must hold):\n${conditions.map((c) => `- ${escapeControls(describe(c))}`).join("\n")}`
      : "No conditions: it fires on the first turn it is evaluated.",
  );
  if (effects.length)
    lines.push(`Effects:\n${effects.map((e) => `- ${escapeControls(describe(e))}`).join("\n")}`);
  if (member(record, "script"))
    lines.push("Has a script (runs after the conditions pass, before the effects).");
  lines.push(fireVerdict(world, key));
  return lines.join("\n\n");
}

function fireVerdict(world: WorldDocument, key: string): string {
  const loaded = world.loaded;
  if (loaded.fatal || !loaded.value)
    return "Lint: the world does not load, so whether it can fire is not known.";
  world.check(); // freezes the world, which the analysis caches on
  try {
    const analysis = analyse(loaded.value);
    const actor = analysis.model.actors.find((a) => a.kind === "trigger" && a.key === key);
    if (!actor) return "";
    if (analysis.fires.has(actor)) return "Lint: it **can fire**.";
    const verdict = analysis.verdicts.get(actor);
    const impossible = verdict?.impossible.map((c) => describeCondition(c)) ?? [];
    return `Lint: it can **never fire**: ${escapeControls(whyActorNever(analysis, actor))}${impossible.length ? ` (never true: ${impossible.map(escapeControls).join("; ")})` : ""}.`;
  } catch {
    return "";
  }
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        if (k && v) out[k.value as string] = nodeValue(v);
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

export { nodeValue };
