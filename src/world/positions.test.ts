import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { JsonPath } from "./diagnostic.ts";
import { type BracketPairs, PositionIndex, pairBrackets } from "./positions.ts";
import { findExcessiveNesting, locate, parseSource } from "./source.ts";

/** Every path of a value, and a few that do not exist. */
function pathsOf(value: unknown, path: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) pathsOf(value[i], [...path, i], out);
    out.push([...path, value.length], [...path, "x"]);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) pathsOf(child, [...path, key], out);
    out.push([...path, "no such key"], [...path, 0]);
  }
  return out;
}

/** What jsonc-parser's syntax tree (the positions before the index) gives for a path. */
function byTree(text: string, path: JsonPath, atKey: boolean): number | undefined {
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  const node = root ? findNodeAtLocation(root, path) : undefined;
  if (!node) return undefined;
  const key = atKey && node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
  return (key ?? node).offset;
}

const keys = fc.oneof(
  fc.string(),
  fc.constantFrom("a", "b", 'q"uote', "back\\slash", "é", "__proto__", "\u2028"),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(keys, tie("value"), { maxKeys: 4 }),
  ),
})).value;

test("the index finds every path where jsonc-parser's tree does, in any layout", () => {
  fc.assert(
    fc.property(json, fc.constantFrom(0, 2, "\t"), fc.boolean(), (value, indent, crlf) => {
      let text = JSON.stringify(value, null, indent);
      if (crlf) text = text.replace(/\n/g, "\r\n");
      const index = new PositionIndex(text);
      for (const path of pathsOf(value)) {
        for (const atKey of [false, true]) {
          assert.equal(index.find(path, atKey)?.offset, byTree(text, path, atKey), JSON.stringify(path));
        }
      }
    }),
    { numRuns: 300 },
  );
});

test("the loader's nesting scan records the same bracket pairs as the index's own pass", () => {
  fc.assert(
    fc.property(json, fc.constantFrom(0, 2, "\t"), (value, indent) => {
      const text = JSON.stringify({ v: value, s: '"[{\\' }, null, indent);
      const counts: { keys: number; brackets?: BracketPairs } = { keys: 0 };
      assert.equal(findExcessiveNesting(text, 1_000, counts), undefined);
      assert.deepEqual(counts.brackets, pairBrackets(text));
      const recorded = new PositionIndex(text, counts.brackets);
      const scanned = new PositionIndex(text);
      for (const path of pathsOf(value)) {
        assert.deepEqual(recorded.find(["v", ...path], true), scanned.find(["v", ...path], true));
      }
    }),
    { numRuns: 200 },
  );
});

test("duplicate keys: the first one is the position, as in the tree", () => {
  const text = '{ "a": 1, "b": { "c": 2 }, "a": 3, "\\u0062": [4] }';
  const index = new PositionIndex(text);
  assert.equal(index.find(["a"])?.offset, byTree(text, ["a"], false));
  assert.equal(index.find(["b", "c"])?.offset, byTree(text, ["b", "c"], false));
  assert.equal(index.find(["a"], true)?.offset, 2);
});

test("no nesting depth overflows the stack: 200,000 levels", () => {
  const depth = 200_000;
  const text = `{"x":${"[".repeat(depth)}"deep"${"]".repeat(depth)}}`;
  const { source } = parseSource("deep.json", text);
  const path: JsonPath = ["x", ...new Array<number>(depth).fill(0)];
  assert.deepEqual(locate(source, path), { line: 1, column: 6 + depth });
  assert.deepEqual(
    locate(source, [...path, 0]),
    { line: 1, column: 6 + depth },
    "the deepest node that exists",
  );
});
