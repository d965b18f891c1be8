import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Layout, type LayoutEdge, type LayoutNode, layoutGraph } from "./layout.ts";

const box = (id: string, width = 80): LayoutNode => ({ id, width, height: 30 });
const edge = (from: string, to: string, labelWidth = 20): LayoutEdge => ({ from, to, labelWidth });

function assertNoOverlap(layout: Layout) {
  const placed = [...layout.nodes.entries()];
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      const [a, p] = placed[i]!;
      const [b, q] = placed[j]!;
      const apartX = Math.abs(p.x - q.x) >= (p.width + q.width) / 2;
      const apartY = Math.abs(p.y - q.y) >= (p.height + q.height) / 2;
      assert.ok(apartX || apartY, `${a} and ${b} overlap`);
    }
  }
  for (const [id, p] of placed) {
    assert.ok(p.x - p.width / 2 >= 0 && p.x + p.width / 2 <= layout.width, `${id} inside horizontally`);
    assert.ok(p.y - p.height / 2 >= 0 && p.y + p.height / 2 <= layout.height, `${id} inside vertically`);
  }
}

describe("layered layout", () => {
  test("edges go left to right, one column per step", () => {
    const layout = layoutGraph([box("a"), box("b"), box("c")], [edge("a", "b"), edge("b", "c")]);
    const [a, b, c] = ["a", "b", "c"].map((id) => layout.nodes.get(id)!);
    assert.deepEqual([a!.layer, b!.layer, c!.layer], [0, 1, 2]);
    assert.ok(a!.x < b!.x && b!.x < c!.x);
    assert.equal(a!.y, b!.y, "a chain is straight");
    const [first] = layout.edges;
    assert.deepEqual(first!.points[0], { x: a!.x + 40, y: a!.y }, "starts at the right side of the source");
    assert.deepEqual(first!.points.at(-1), { x: b!.x - 40, y: b!.y }, "ends at the left side of the target");
    assertNoOverlap(layout);
  });

  test("a source sits just before its first successor", () => {
    const layout = layoutGraph(
      [box("a"), box("b"), box("c"), box("late")],
      [edge("a", "b"), edge("b", "c"), edge("late", "c")],
    );
    assert.equal(layout.nodes.get("late")!.layer, 1);
  });

  test("cycles are laid out, and a back edge still points at its target", () => {
    const layout = layoutGraph([box("a"), box("b")], [edge("a", "b"), edge("b", "a")]);
    const [forward, back] = layout.edges;
    const a = layout.nodes.get("a")!;
    const b = layout.nodes.get("b")!;
    assert.notEqual(a.layer, b.layer);
    assert.ok(Math.abs(forward!.points.at(-1)!.x - (b.x - b.width / 2)) < 1e-9);
    assert.ok(Math.abs(back!.points.at(-1)!.x - (a.x + a.width / 2)) < 1e-9, "ends on a's side");
    assert.notEqual(forward!.points[0]!.y, back!.points.at(-1)!.y, "opposite edges do not overlap");
    assertNoOverlap(layout);
  });

  test("long edges bend through every column they cross; self-loops are flagged", () => {
    const layout = layoutGraph(
      [box("a"), box("b"), box("c"), box("d")],
      [edge("a", "b"), edge("b", "c"), edge("c", "d"), edge("a", "d"), edge("d", "d")],
    );
    assert.equal(layout.edges[3]!.points.length, 4, "a -> d: two sides and two bend points");
    assert.equal(layout.edges[4]!.selfLoop, true);
    assertNoOverlap(layout);
  });

  test("columns leave room for the widest label between them", () => {
    const layout = layoutGraph([box("a", 50), box("b", 50)], [edge("a", "b", 300)]);
    const gap = layout.nodes.get("b")!.x - 25 - (layout.nodes.get("a")!.x + 25);
    assert.ok(gap >= 300, `gap ${gap}`);
  });

  test("a larger graph: no overlaps, and the same input gives the same output", () => {
    const nodes = Array.from({ length: 60 }, (_, i) => box(`n${i}`, 40 + (i % 7) * 10));
    const edges: LayoutEdge[] = [];
    for (let i = 0; i < 60; i++) {
      edges.push(edge(`n${i}`, `n${(i * 7 + 3) % 60}`));
      if (i % 3 === 0) edges.push(edge(`n${i}`, `n${(i + 11) % 60}`));
    }
    const layout = layoutGraph(nodes, edges);
    assertNoOverlap(layout);
    assert.deepEqual(layoutGraph(nodes, edges), layout);
  });

  test("an empty graph, and an edge to an unknown node", () => {
    const empty = layoutGraph([], []);
    assert.equal(empty.nodes.size, 0);
    assert.ok(empty.width >= 0 && empty.height >= 0);
    assert.throws(() => layoutGraph([box("a")], [edge("a", "zz")]), /not in the list/);
  });
});
