import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * No import circles in src/: a module that imports, through any chain, a
 * module that imports it back is read half-initialised by whichever loads
 * first, and the two can only be understood together. Type-only and dynamic
 * imports count too (a type import is still a dependency of the reader; the
 * fix is to move the shared type down into a leaf module both can import).
 * TypeScript's own pre-processor lists each file's imports.
 */
const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(SRC, f));
}

/** Every module of src/ with the modules of src/ it imports (static, type-only, re-exports, import()). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(
      file,
      importedFiles
        .map((entry) => entry.fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name))
        .filter((target) => known.has(target)),
    );
  }
  return graph;
}

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("import graph of src/", () => {
  it("has no circles", () => {
    const cycles = cyclesOf(importGraph(sources())).map((cycle) =>
      cycle.map((file) => relative(SRC, file)).join(" <-> "),
    );
    assert.deepEqual(
      cycles,
      [],
      "move the type or helper both sides need into a module that imports neither",
    );
  });

  it("finds a circle when there is one (the check can fail)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]],
    ]);
    assert.deepEqual(cyclesOf(graph), [["a", "b", "c"], ["e"]]);
  });

  it("sees the imports it checks (the graph is not empty)", () => {
    const graph = importGraph(sources());
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    assert.ok(graph.size > 100 && edges > graph.size, `${graph.size} modules, ${edges} imports`);
  });
});
