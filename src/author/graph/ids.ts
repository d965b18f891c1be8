import type { NodeKind, WorldGraph } from "./model.ts";

const PREFIX: Record<NodeKind, string> = { trigger: "t", quest: "q", event: "e", storage: "s" };

/**
 * Short identifiers for the text formats (`t0`, `q0`, `e0`, `s0`), numbered
 * per kind in node order. A key may hold any character, so it only ever
 * appears in an escaped label, never as an identifier: nothing in a name can
 * break the syntax, and the same world always gives the same text.
 */
export function shortIds(graph: WorldGraph): Map<string, string> {
  const counts: Record<NodeKind, number> = { trigger: 0, quest: 0, event: 0, storage: 0 };
  const ids = new Map<string, string>();
  for (const node of graph.nodes) ids.set(node.id, `${PREFIX[node.kind]}${counts[node.kind]++}`);
  return ids;
}
