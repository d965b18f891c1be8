/**
 * A layered ("Sugiyama") layout, left to right, written for the world graph
 * so that `taleforge graph --format svg` needs neither a browser nor
 * Graphviz. The classic steps, each kept simple and deterministic (the same
 * input always gives the same coordinates, so SVG output can be diffed):
 *
 * 1. break cycles by reversing the back edges of a depth-first search;
 * 2. put each node in a layer (longest path), then pull sources next to
 *    their first successor so that a trigger sits just before what it moves;
 * 3. split edges that span layers with dummy points, so they bend around
 *    nodes instead of crossing them;
 * 4. order each layer by barycentre sweeps, keeping the order with the
 *    fewest crossings;
 * 5. place layers as columns wide enough for the edge labels between them,
 *    and nodes at the mean height of their neighbours without overlaps
 *    (isotonic regression, which keeps the order and the gaps).
 */

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
  /** Space the edge's label needs between two columns. */
  labelWidth: number;
}

export interface LayoutOptions {
  /** Vertical space between two nodes of a column. */
  nodeGap: number;
  /** Horizontal space between two columns, at least (labels may widen it). */
  layerGap: number;
  /** Space around the drawing. */
  margin: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode extends Point {
  /** x and y are the centre. */
  width: number;
  height: number;
  layer: number;
}

export interface PlacedEdge {
  /** From the source's side to the target's side, through the bend points; empty for a self-loop. */
  points: Point[];
  /** Centre of the edge's label. */
  label: Point;
  selfLoop: boolean;
}

export interface Layout {
  width: number;
  height: number;
  nodes: Map<string, PlacedNode>;
  /** In the order of the input edges. */
  edges: PlacedEdge[];
}

export const DEFAULT_LAYOUT: LayoutOptions = { nodeGap: 18, layerGap: 56, margin: 24 };

/** Height of a bend point in a column: edges passing a column need a little room, not a node's. */
const DUMMY_HEIGHT = 6;
const ORDER_SWEEPS = 8;
const PLACE_SWEEPS = 6;

interface Vertex {
  width: number;
  height: number;
  layer: number;
  /** Neighbours in the previous and next layer (vertex indexes). */
  up: number[];
  down: number[];
  real: boolean;
}

export function layoutGraph(
  nodes: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
  options: LayoutOptions = DEFAULT_LAYOUT,
): Layout {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const n = nodes.length;
  const endpoints = edges.map((e) => [index.get(e.from), index.get(e.to)] as const);
  for (const [a, b] of endpoints) {
    if (a === undefined || b === undefined)
      throw new Error("layoutGraph: an edge names a node that is not in the list");
  }
  const pairs = endpoints as readonly (readonly [number, number])[];

  // 1. Cycle breaking: an edge to a node still on the DFS stack goes backwards.
  const reversed = findBackEdges(n, pairs);
  const dag = pairs.map(([a, b], i) => (reversed[i] ? ([b, a] as const) : ([a, b] as const)));

  // 2. Layers.
  const layer = assignLayers(n, dag, pairs);

  // 3. Vertices: the real nodes, then bend points for long edges.
  const vertices: Vertex[] = nodes.map((node, i) => ({
    width: node.width,
    height: node.height,
    layer: layer[i]!,
    up: [],
    down: [],
    real: true,
  }));
  const chains: number[][] = dag.map(([a, b]) => {
    if (a === b) return [a];
    const chain = [a];
    for (let l = layer[a]! + 1; l < layer[b]!; l++) {
      vertices.push({ width: 0, height: DUMMY_HEIGHT, layer: l, up: [], down: [], real: false });
      chain.push(vertices.length - 1);
    }
    chain.push(b);
    for (let k = 0; k + 1 < chain.length; k++) {
      vertices[chain[k]!]!.down.push(chain[k + 1]!);
      vertices[chain[k + 1]!]!.up.push(chain[k]!);
    }
    return chain;
  });

  // 4. Order within layers.
  const layerCount = vertices.reduce((max, v) => Math.max(max, v.layer + 1), 0);
  const layers = orderLayers(vertices, layerCount);

  // 5. Coordinates.
  const columnWidth = layers.map((ids) => ids.reduce((max, v) => Math.max(max, vertices[v]!.width), 0));
  const gapNeed = new Array<number>(Math.max(0, layerCount - 1)).fill(options.layerGap);
  chains.forEach((chain, i) => {
    if (chain.length < 2) return;
    const k = labelSegment(chain.length);
    const l = vertices[chain[k]!]!.layer;
    gapNeed[l] = Math.max(gapNeed[l]!, edges[i]!.labelWidth + 24);
  });
  const columnX: number[] = [];
  let x = options.margin;
  for (let l = 0; l < layerCount; l++) {
    columnX.push(x + columnWidth[l]! / 2);
    x += columnWidth[l]! + (gapNeed[l] ?? 0);
  }
  const ys = placeVertically(vertices, layers, options.nodeGap);

  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  vertices.forEach((v, i) => {
    top = Math.min(top, ys[i]! - v.height / 2);
    bottom = Math.max(bottom, ys[i]! + v.height / 2);
  });
  if (vertices.length === 0) top = bottom = 0;
  const shift = options.margin - top;
  const at = (v: number): Point => ({ x: columnX[vertices[v]!.layer]!, y: ys[v]! + shift });

  const placed = new Map<string, PlacedNode>();
  nodes.forEach((node, i) => {
    placed.set(node.id, { ...at(i), width: node.width, height: node.height, layer: layer[i]! });
  });

  // Two edges between the same nodes in opposite directions (a trigger that reads and writes a key) would overlap.
  const pairKeys = new Set(pairs.map(([a, b]) => `${a},${b}`));
  const placedEdges: PlacedEdge[] = chains.map((chain, i) => {
    const [from, to] = pairs[i]!;
    if (from === to) {
      const node = at(from);
      const right = node.x + vertices[from]!.width / 2;
      return {
        points: [],
        label: { x: right + 18, y: node.y - vertices[from]!.height / 2 - 8 },
        selfLoop: true,
      };
    }
    const offset = pairKeys.has(`${to},${from}`) ? (from < to ? -5 : 5) : 0;
    const points = chain.map((v, k) => {
      const p = at(v);
      if (k === 0) return { x: p.x + vertices[v]!.width / 2, y: p.y + offset };
      if (k === chain.length - 1) return { x: p.x - vertices[v]!.width / 2, y: p.y + offset };
      return p;
    });
    const k = labelSegment(chain.length);
    const a = points[k]!;
    const b = points[k + 1]!;
    const label = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 + offset * 1.6 };
    return { points: reversed[i] ? points.reverse() : points, label, selfLoop: false };
  });

  const lastColumn = layerCount > 0 ? columnX[layerCount - 1]! + columnWidth[layerCount - 1]! / 2 : 0;
  const loopRoom = placedEdges.some((e) => e.selfLoop) ? 60 : 0;
  return {
    width: Math.ceil(Math.max(lastColumn, 0) + options.margin + loopRoom),
    height: Math.ceil(bottom - top + 2 * options.margin),
    nodes: placed,
    edges: placedEdges,
  };
}

/** The segment of a chain of `length` points that carries the label: the middle one. */
function labelSegment(length: number): number {
  return Math.floor((length - 2) / 2);
}

/** Iterative DFS in node order; true for each edge that closes a cycle. */
function findBackEdges(n: number, pairs: readonly (readonly [number, number])[]): boolean[] {
  const out: number[][] = Array.from({ length: n }, () => []);
  pairs.forEach(([a], i) => {
    out[a]!.push(i);
  });
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const back = new Array<boolean>(pairs.length).fill(false);
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [v, next] = top;
      if (next >= out[v]!.length) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = next + 1;
      const edge = out[v]![next]!;
      const w = pairs[edge]![1];
      if (w === v) continue;
      if (state[w] === 1) back[edge] = true;
      else if (state[w] === 0) {
        state[w] = 1;
        stack.push([w, 0]);
      }
    }
  }
  return back;
}

/**
 * Longest-path layers over the acyclic edges, then each source moved right
 * to one layer before its nearest successor. Nodes without edges stay in
 * layer 0.
 */
function assignLayers(
  n: number,
  dag: readonly (readonly [number, number])[],
  pairs: readonly (readonly [number, number])[],
): number[] {
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indegree = new Array<number>(n).fill(0);
  dag.forEach(([a, b], i) => {
    if (a === b || pairs[i]![0] === pairs[i]![1]) return;
    succ[a]!.push(b);
    indegree[b]!++;
  });
  const layer = new Array<number>(n).fill(0);
  const remaining = [...indegree];
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (remaining[v] === 0) queue.push(v);
  const order: number[] = [];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    order.push(v);
    for (const w of succ[v]!) {
      layer[w] = Math.max(layer[w]!, layer[v]! + 1);
      if (--remaining[w]! === 0) queue.push(w);
    }
  }
  for (const v of order) {
    if (indegree[v] === 0 && succ[v]!.length > 0) {
      layer[v] = Math.min(...succ[v]!.map((w) => layer[w]!)) - 1;
    }
  }
  return layer;
}

/** Barycentre sweeps, down then up, keeping the ordering with the fewest crossings. */
function orderLayers(vertices: Vertex[], layerCount: number): number[][] {
  let layers: number[][] = Array.from({ length: layerCount }, () => []);
  vertices.forEach((v, i) => {
    layers[v.layer]!.push(i);
  });
  // Start from a depth-first order, which keeps chains of nodes together.
  layers = initialOrder(vertices, layers);
  let best = layers.map((l) => [...l]);
  let bestCrossings = countAll(vertices, layers);
  for (let sweep = 0; sweep < ORDER_SWEEPS && bestCrossings > 0; sweep++) {
    const down = sweep % 2 === 0;
    const position = positions(vertices.length, layers);
    const range = down ? [...layers.keys()].slice(1) : [...layers.keys()].reverse().slice(1);
    for (const l of range) {
      const ids = layers[l]!;
      const keyed = ids.map((v, i) => {
        const neighbours = down ? vertices[v]!.up : vertices[v]!.down;
        const value =
          neighbours.length === 0
            ? position[v]!
            : neighbours.reduce((sum, w) => sum + position[w]!, 0) / neighbours.length;
        return { v, value, i };
      });
      keyed.sort((a, b) => a.value - b.value || a.i - b.i);
      layers[l] = keyed.map((k) => k.v);
      layers[l]!.forEach((v, i) => {
        position[v] = i;
      });
    }
    const crossings = countAll(vertices, layers);
    if (crossings < bestCrossings) {
      bestCrossings = crossings;
      best = layers.map((l) => [...l]);
    }
  }
  return best;
}

function initialOrder(vertices: Vertex[], layers: number[][]): number[][] {
  const seen = new Uint8Array(vertices.length);
  const order: number[] = [];
  const visit = (root: number) => {
    const stack = [root];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen[v]) continue;
      seen[v] = 1;
      order.push(v);
      const next = [...vertices[v]!.down, ...vertices[v]!.up];
      for (let k = next.length - 1; k >= 0; k--) if (!seen[next[k]!]) stack.push(next[k]!);
    }
  };
  for (let v = 0; v < vertices.length; v++) if (vertices[v]!.real) visit(v);
  const rank = new Array<number>(vertices.length);
  order.forEach((v, i) => {
    rank[v] = i;
  });
  return layers.map((ids) => [...ids].sort((a, b) => rank[a]! - rank[b]!));
}

function positions(count: number, layers: number[][]): number[] {
  const position = new Array<number>(count).fill(0);
  for (const ids of layers) {
    ids.forEach((v, i) => {
      position[v] = i;
    });
  }
  return position;
}

/** Crossings between every pair of neighbouring layers. */
function countAll(vertices: Vertex[], layers: number[][]): number {
  const position = positions(vertices.length, layers);
  let total = 0;
  for (let l = 0; l + 1 < layers.length; l++) {
    const segments: [number, number][] = [];
    for (const v of layers[l]!)
      for (const w of vertices[v]!.down) segments.push([position[v]!, position[w]!]);
    segments.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    total += inversions(segments.map((s) => s[1]));
  }
  return total;
}

/** Pairs i < j with values[i] > values[j], by merge sort. */
function inversions(values: number[]): number {
  if (values.length < 2) return 0;
  const middle = values.length >> 1;
  const left = values.slice(0, middle);
  const right = values.slice(middle);
  let count = inversions(left) + inversions(right);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < left.length && j < right.length) {
    if (left[i]! <= right[j]!) values[k++] = left[i++]!;
    else {
      values[k++] = right[j++]!;
      count += left.length - i;
    }
  }
  while (i < left.length) values[k++] = left[i++]!;
  while (j < right.length) values[k++] = right[j++]!;
  return count;
}

/**
 * Heights: stacked in order first, then each node pulled toward the mean
 * height of its neighbours in the layer before (down sweeps) or after (up
 * sweeps), and the wishes of a layer projected back onto "same order, no
 * overlap" by isotonic regression (pool adjacent violators).
 */
function placeVertically(vertices: Vertex[], layers: number[][], nodeGap: number): number[] {
  const y = new Array<number>(vertices.length).fill(0);
  const gapBetween = (a: number, b: number) => {
    const va = vertices[a]!;
    const vb = vertices[b]!;
    const gap = va.real || vb.real ? nodeGap : 4;
    return (va.height + vb.height) / 2 + gap;
  };
  for (const ids of layers) {
    let at = 0;
    ids.forEach((v, i) => {
      if (i > 0) at += gapBetween(ids[i - 1]!, v);
      y[v] = at;
    });
  }
  const settle = (ids: number[], wish: (v: number) => number | undefined) => {
    if (ids.length === 0) return;
    const offsets = [0];
    for (let i = 1; i < ids.length; i++) offsets.push(offsets[i - 1]! + gapBetween(ids[i - 1]!, ids[i]!));
    const targets = ids.map((v, i) => (wish(v) ?? y[v]!) - offsets[i]!);
    const fitted = isotonic(targets);
    ids.forEach((v, i) => {
      y[v] = fitted[i]! + offsets[i]!;
    });
  };
  const mean = (list: number[]) =>
    list.length === 0 ? undefined : list.reduce((sum, w) => sum + y[w]!, 0) / list.length;
  for (let sweep = 0; sweep < PLACE_SWEEPS; sweep++) {
    const down = sweep % 2 === 0;
    const order = down ? [...layers.keys()] : [...layers.keys()].reverse();
    for (const l of order) settle(layers[l]!, (v) => mean(down ? vertices[v]!.up : vertices[v]!.down));
  }
  for (const ids of layers) settle(ids, (v) => mean([...vertices[v]!.up, ...vertices[v]!.down]));
  return y;
}

/** The non-decreasing sequence closest to `values` (least squares). */
function isotonic(values: number[]): number[] {
  const blocks: { sum: number; count: number }[] = [];
  for (const value of values) {
    blocks.push({ sum: value, count: 1 });
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const before = blocks[blocks.length - 2]!;
      if (before.sum / before.count <= last.sum / last.count) break;
      before.sum += last.sum;
      before.count += last.count;
      blocks.pop();
    }
  }
  return blocks.flatMap((b) => new Array<number>(b.count).fill(b.sum / b.count));
}
