import { oneLine } from "../text.ts";
import { bundleEdges } from "./bundle.ts";
import { shortIds } from "./ids.ts";
import { type GraphNode, nodeNote, type WorldGraph } from "./model.ts";

/**
 * The graph in Graphviz DOT, for `dot -Tsvg` or `dot -Tpng` and the many
 * tools that read DOT. Same shapes and colours as the Mermaid output: effects
 * solid, conditions dashed.
 */
export function toDot(graph: WorldGraph): string {
  const ids = shortIds(graph);
  const lines = [
    "digraph world {",
    "  rankdir=LR;",
    '  graph [fontname="DejaVu Sans", nodesep=0.25, ranksep=0.6];',
    '  node [fontname="DejaVu Sans Mono", fontsize=11, style=filled, color="#334155", fillcolor="#ffffff"];',
    '  edge [fontname="DejaVu Sans", fontsize=9, color="#475569", fontcolor="#334155"];',
  ];
  for (const node of graph.nodes) lines.push(`  ${ids.get(node.id)} [${nodeAttributes(node)}];`);
  for (const bundle of bundleEdges(graph)) {
    const style = bundle.role === "condition" ? ", style=dashed" : "";
    lines.push(`  ${ids.get(bundle.from)} -> ${ids.get(bundle.to)} [label=${quote(bundle.label)}${style}];`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

const STYLE: Record<string, string> = {
  state: 'shape=box, style="rounded,filled", fillcolor="#dbeafe", color="#1d4ed8"',
  planning: 'shape=box, style="rounded,filled", fillcolor="#ffedd5", color="#c2410c"',
  quest: 'shape=box, peripheries=2, fillcolor="#dcfce7", color="#15803d"',
  event: 'shape=box, style="rounded,filled", fillcolor="#f3e8ff", color="#7e22ce"',
  storage: 'shape=cylinder, fillcolor="#fef9c3", color="#a16207"',
};

function nodeAttributes(node: GraphNode): string {
  const note = nodeNote(node);
  const missing = node.missing ? ', style="dashed,filled", fillcolor="#fee2e2", color="#dc2626"' : "";
  const label = `${escapeDot(node.key)}\\n${escapeDot(note)}`;
  const style = STYLE[node.trigger ? node.trigger.phase : node.kind]!;
  return `label="${label}", tooltip=${quote(node.key)}, ${style}${missing}`;
}

function quote(text: string): string {
  return `"${escapeDot(text)}"`;
}

/**
 * Text for inside a DOT `"…"` string. A backslash starts DOT's own escapes
 * (`\n`, `\l`, `\N`…) and a quote ends the string, so both are escaped;
 * Graphviz also expands `&name;` entities in labels, so `&` becomes `&amp;`.
 * Line breaks become spaces (one line per name, as in the other formats).
 */
export function escapeDot(text: string): string {
  return oneLine(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/&/g, "&amp;");
}
