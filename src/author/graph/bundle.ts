import type { GraphEdge, WorldGraph } from "./model.ts";

/**
 * One arrow per (from, to) pair: a trigger that completes one objective of a
 * quest and reveals the next would otherwise draw two arrows on top of each
 * other. Every renderer draws bundles, so the formats show the same arrows.
 */
export interface EdgeBundle {
  from: string;
  to: string;
  /** The labels of the bundled edges, in order, without repeats; "(script)" marks what a script does. */
  label: string;
  /** Into a trigger: a condition the trigger waits on. Otherwise an effect (or onCompleteEffects). */
  role: "condition" | "effect";
  /** Every edge of the bundle was found in a script. */
  viaScript: boolean;
  edges: GraphEdge[];
}

export function bundleEdges(graph: WorldGraph): EdgeBundle[] {
  const triggers = new Set(graph.nodes.filter((n) => n.kind === "trigger").map((n) => n.id));
  const bundles = new Map<string, EdgeBundle>();
  for (const edge of graph.edges) {
    const key = JSON.stringify([edge.from, edge.to]);
    let bundle = bundles.get(key);
    if (!bundle) {
      bundle = {
        from: edge.from,
        to: edge.to,
        label: "",
        role: triggers.has(edge.to) ? "condition" : "effect",
        viaScript: true,
        edges: [],
      };
      bundles.set(key, bundle);
    }
    bundle.edges.push(edge);
    bundle.viaScript &&= edge.viaScript;
  }
  for (const bundle of bundles.values()) {
    const labels = bundle.edges.map((e) => (e.viaScript ? `${e.label} (script)` : e.label));
    bundle.label = [...new Set(labels)].join(", ");
  }
  return [...bundles.values()];
}
