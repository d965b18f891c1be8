import { oneLine } from "../text.ts";
import { bundleEdges } from "./bundle.ts";
import { shortIds } from "./ids.ts";
import { type GraphNode, nodeNote, type WorldGraph } from "./model.ts";

/**
 * The graph as a Mermaid flowchart (left to right), for Markdown on GitHub,
 * GitLab and most wikis. Triggers are boxes coloured by phase, quests
 * subroutine boxes, narrative events stadiums, storage keys cylinders; solid
 * arrows are effects, dotted ones conditions.
 */
export function toMermaid(graph: WorldGraph): string {
  const ids = shortIds(graph);
  const lines = ["flowchart LR"];
  for (const node of graph.nodes) lines.push(`  ${ids.get(node.id)}${shape(node)}:::${classOf(node)}`);
  for (const bundle of bundleEdges(graph)) {
    const arrow = bundle.role === "condition" ? "-.->" : "-->";
    lines.push(`  ${ids.get(bundle.from)} ${arrow}|"${escapeMermaid(bundle.label)}"| ${ids.get(bundle.to)}`);
  }
  lines.push(
    "  classDef state fill:#dbeafe,stroke:#1d4ed8,color:#0f172a",
    "  classDef planning fill:#ffedd5,stroke:#c2410c,color:#0f172a",
    "  classDef quest fill:#dcfce7,stroke:#15803d,color:#0f172a",
    "  classDef event fill:#f3e8ff,stroke:#7e22ce,color:#0f172a",
    "  classDef storage fill:#fef9c3,stroke:#a16207,color:#0f172a",
    "  classDef missing fill:#fee2e2,stroke:#dc2626,stroke-dasharray:4 3,color:#0f172a",
  );
  return `${lines.join("\n")}\n`;
}

function shape(node: GraphNode): string {
  const name = escapeMermaid(node.key);
  const note = nodeNote(node);
  const text = `"${name}<br/>${escapeMermaid(note)}"`;
  switch (node.kind) {
    case "trigger":
      return `[${text}]`;
    case "quest":
      return `[[${text}]]`;
    case "event":
      return `([${text}])`;
    case "storage":
      return `[(${text})]`;
  }
}

function classOf(node: GraphNode): string {
  if (node.missing) return "missing";
  return node.trigger ? node.trigger.phase : node.kind;
}

/**
 * Text for inside a Mermaid `"…"` label. Mermaid reads `#name;` and `#123;`
 * as character references, and its labels are HTML: so `#`, quotes, `<`, `>`
 * and `&` become numeric references, and so do `|` (ends an edge label),
 * `%` (comments), `:` and `;` (Mermaid's own style syntax), the backtick
 * (Markdown strings) and the backslash (Mermaid reads a literal `\n` as a
 * line break). Line breaks become spaces.
 */
export function escapeMermaid(text: string): string {
  const flat = oneLine(text);
  let out = "";
  for (const char of flat) {
    out += /["#&<>|%:;`\\]/.test(char) ? `#${char.codePointAt(0)};` : char;
  }
  return out === "" ? " " : out;
}
