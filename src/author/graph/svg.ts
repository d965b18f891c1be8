import { oneLine, textWidth } from "../text.ts";
import { escapeXml, num } from "../xml.ts";
import { bundleEdges } from "./bundle.ts";
import { type Layout, layoutGraph, type Point } from "./layout.ts";
import { type GraphNode, nodeNote, type WorldGraph } from "./model.ts";

/**
 * The graph as a standalone SVG, laid out by layout.ts: no browser, no
 * Graphviz, and the same bytes for the same world. Every node is a
 * `<g class="node KIND …" data-key="…">` with a `<title>` (the full key and
 * its marks, shown as a tooltip) and every arrow a `<g class="edge …">`, so
 * that tests and scripts can read the drawing as data.
 */

const NAME_SIZE = 12;
const NOTE_SIZE = 10;
const LABEL_SIZE = 10;
/** Longest name drawn in full; longer ones end with an ellipsis (the title keeps the whole key). */
const MAX_NAME = 40;
const MAX_LABEL = 44;
const PAD_X = 10;
const NODE_HEIGHT = 38;

const COLOURS: Record<string, { fill: string; stroke: string }> = {
  state: { fill: "#dbeafe", stroke: "#1d4ed8" },
  planning: { fill: "#ffedd5", stroke: "#c2410c" },
  quest: { fill: "#dcfce7", stroke: "#15803d" },
  event: { fill: "#f3e8ff", stroke: "#7e22ce" },
  storage: { fill: "#fef9c3", stroke: "#a16207" },
  missing: { fill: "#fee2e2", stroke: "#dc2626" },
};

export function toSvg(graph: WorldGraph): string {
  const bundles = bundleEdges(graph);
  const boxes = graph.nodes.map((node) => {
    const name = oneLine(node.key, MAX_NAME) || " ";
    const note = nodeNote(node);
    const width = Math.ceil(Math.max(textWidth(name, NAME_SIZE), textWidth(note, NOTE_SIZE)) + 2 * PAD_X + 8);
    return { node, name, note, width };
  });
  const labels = bundles.map((b) => oneLine(b.label, MAX_LABEL));
  const layout = layoutGraph(
    boxes.map((b) => ({ id: b.node.id, width: b.width, height: NODE_HEIGHT })),
    bundles.map((b, i) => ({ from: b.from, to: b.to, labelWidth: textWidth(labels[i]!, LABEL_SIZE) })),
  );
  const legendTop = layout.height;
  const width = Math.ceil(Math.max(layout.width, legendWidth()));
  const height = legendTop + 44;

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`,
    "<title>World logic: triggers, quests, narrative events and storage keys</title>",
    "<defs>",
    '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#475569"/></marker>',
    "</defs>",
    `<rect class="background" x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    '<g class="edges">',
  ];
  bundles.forEach((bundle, i) => {
    const placed = layout.edges[i]!;
    const from = layout.nodes.get(bundle.from)!;
    const d = placed.selfLoop ? loopPath(from) : curve(placed.points);
    const dash = bundle.role === "condition" ? ' stroke-dasharray="5 4"' : "";
    const label = labels[i]!;
    const w = textWidth(label, LABEL_SIZE) + 6;
    out.push(
      `<g class="edge ${bundle.role}${bundle.viaScript ? " script" : ""}" data-from="${escapeXml(bundle.from)}" data-to="${escapeXml(bundle.to)}">`,
      `<title>${escapeXml(`${keyOf(bundle.from)} → ${keyOf(bundle.to)}: ${bundle.label}`)}</title>`,
      `<path d="${d}" fill="none" stroke="#475569" stroke-width="1.2"${dash} marker-end="url(#arrow)"/>`,
      `<rect x="${num(placed.label.x - w / 2)}" y="${num(placed.label.y - 7)}" width="${num(w)}" height="13" rx="3" fill="#ffffff" fill-opacity="0.85"/>`,
      `<text x="${num(placed.label.x)}" y="${num(placed.label.y + 3.5)}" font-size="${LABEL_SIZE}" text-anchor="middle" fill="#334155">${escapeXml(label)}</text>`,
      "</g>",
    );
  });
  out.push("</g>", '<g class="nodes">');
  for (const box of boxes) out.push(...nodeSvg(box, layout));
  out.push("</g>", ...legend(legendTop), "</svg>");
  return `${out.join("\n")}\n`;
}

function keyOf(id: string): string {
  return id.slice(id.indexOf(":") + 1);
}

function classOf(node: GraphNode): string {
  const classes = ["node", node.kind];
  if (node.trigger) {
    classes.push(node.trigger.phase);
    if (node.trigger.recurring) classes.push("recurring");
    if (node.trigger.scripted) classes.push("scripted");
    if (node.trigger.engineMade) classes.push("engine-made");
  }
  if (node.missing) classes.push("missing");
  return classes.join(" ");
}

function nodeSvg(
  box: { node: GraphNode; name: string; note: string; width: number },
  layout: Layout,
): string[] {
  const { node, name, note } = box;
  const p = layout.nodes.get(node.id)!;
  const colour = COLOURS[node.missing ? "missing" : node.trigger ? node.trigger.phase : node.kind]!;
  const x = p.x - p.width / 2;
  const y = p.y - p.height / 2;
  const stroke = `fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="1.4"${node.missing ? ' stroke-dasharray="4 3"' : ""}`;
  const shape: string[] = [];
  switch (node.kind) {
    case "trigger":
      shape.push(
        `<rect x="${num(x)}" y="${num(y)}" width="${num(p.width)}" height="${num(p.height)}" rx="6" ${stroke}/>`,
      );
      break;
    case "quest":
      shape.push(
        `<rect x="${num(x)}" y="${num(y)}" width="${num(p.width)}" height="${num(p.height)}" ${stroke}/>`,
        `<rect x="${num(x + 3)}" y="${num(y + 3)}" width="${num(p.width - 6)}" height="${num(p.height - 6)}" fill="none" stroke="${colour.stroke}" stroke-width="0.8"/>`,
      );
      break;
    case "event":
      shape.push(
        `<rect x="${num(x)}" y="${num(y)}" width="${num(p.width)}" height="${num(p.height)}" rx="${num(p.height / 2)}" ${stroke}/>`,
      );
      break;
    case "storage": {
      // A cylinder: the body, then the near rim of the top.
      const r = 5;
      const right = x + p.width;
      const bottom = y + p.height;
      shape.push(
        `<path d="M${num(x)},${num(y + r)} A${num(p.width / 2)},${r} 0 0 1 ${num(right)},${num(y + r)} L${num(right)},${num(bottom - r)} A${num(p.width / 2)},${r} 0 0 1 ${num(x)},${num(bottom - r)} Z" ${stroke}/>`,
        `<path d="M${num(x)},${num(y + r)} A${num(p.width / 2)},${r} 0 0 0 ${num(right)},${num(y + r)}" fill="none" stroke="${colour.stroke}" stroke-width="1"/>`,
      );
      break;
    }
  }
  const title = `${node.key} (${note})`;
  return [
    `<g class="${classOf(node)}" data-key="${escapeXml(node.key)}">`,
    `<title>${escapeXml(title)}</title>`,
    ...shape,
    `<text x="${num(p.x)}" y="${num(p.y - 1)}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${NAME_SIZE}" text-anchor="middle" fill="#0f172a">${escapeXml(name)}</text>`,
    `<text x="${num(p.x)}" y="${num(p.y + 12)}" font-size="${NOTE_SIZE}" text-anchor="middle" fill="#475569">${escapeXml(note)}</text>`,
    "</g>",
  ];
}

/** Horizontal tangents at every point: smooth S-curves between columns. */
function curve(points: Point[]): string {
  const [first, ...rest] = points;
  if (!first) return "";
  let d = `M${num(first.x)},${num(first.y)}`;
  let previous = first;
  for (const p of rest) {
    const dx = (p.x - previous.x) / 2;
    d += ` C${num(previous.x + dx)},${num(previous.y)} ${num(p.x - dx)},${num(p.y)} ${num(p.x)},${num(p.y)}`;
    previous = p;
  }
  return d;
}

/** A loop over the node's top right corner, for an event whose completion starts itself. */
function loopPath(node: { x: number; y: number; width: number; height: number }): string {
  const right = node.x + node.width / 2;
  const top = node.y - node.height / 2;
  return `M${num(right - 12)},${num(top)} C${num(right - 12)},${num(top - 26)} ${num(right + 26)},${num(top - 26)} ${num(right)},${num(top + 8)}`;
}

const LEGEND: [string, string][] = [
  ["state", "state-phase trigger"],
  ["planning", "planning-phase trigger"],
  ["quest", "quest"],
  ["event", "narrative event"],
  ["storage", "storage key"],
  ["missing", "not defined"],
];
const LEGEND_NOTE =
  "(script): found in a trigger script. Triggers are marked planning/state, recurring, script, AI-judged, engine-made.";

function legendWidth(): number {
  const items = LEGEND.reduce((sum, [, text]) => sum + 26 + Math.ceil(textWidth(text, 10)), 24);
  return (
    Math.max(items + 98 + textWidth("condition (read, status)", 10), 24 + textWidth(LEGEND_NOTE, 10)) + 24
  );
}

function legend(top: number): string[] {
  const items = LEGEND;
  const out = ['<g class="legend" font-size="10" fill="#334155">'];
  let x = 24;
  const y = top + 10;
  for (const [key, text] of items) {
    const c = COLOURS[key]!;
    out.push(
      `<rect x="${x}" y="${y}" width="14" height="10" rx="2" fill="${c.fill}" stroke="${c.stroke}"/>`,
      `<text x="${x + 18}" y="${y + 9}">${escapeXml(text)}</text>`,
    );
    x += 26 + Math.ceil(textWidth(text, 10));
  }
  out.push(
    `<path d="M${x},${y + 5} L${x + 24},${y + 5}" stroke="#475569" marker-end="url(#arrow)"/>`,
    `<text x="${x + 28}" y="${y + 9}">effect</text>`,
    `<path d="M${x + 70},${y + 5} L${x + 94},${y + 5}" stroke="#475569" stroke-dasharray="5 4" marker-end="url(#arrow)"/>`,
    `<text x="${x + 98}" y="${y + 9}">condition (read, status)</text>`,
    `<text x="24" y="${y + 27}" fill="#64748b">${escapeXml(LEGEND_NOTE)}</text>`,
    "</g>",
  );
  return out;
}
