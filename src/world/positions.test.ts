import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { JsonPath } from "./diagnostic.ts";
import { type BracketPairs, PositionIndex, pairBrackets, pairBracketsByCharacter } from "./positions.ts";
import {
  codeFrame,
  findExcessiveNesting,
  locate,
  parseSource,
  positionAt,
  type SourceFile,
} from "./source.ts";

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

test("pairBrackets (a regular expression per bracket) pairs as the loop over every character does, on any text", () => {
  const pieces = fc.constantFrom('"', "\\", "[", "]", "{", "}", " ", "a", ":", ",", "\n", "é");
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 60 }), (chars) => {
      const text = chars.join("");
      assert.deepEqual(pairBrackets(text), pairBracketsByCharacter(text), JSON.stringify(text));
    }),
    { numRuns: 2_000 },
  );
  fc.assert(
    fc.property(json, fc.constantFrom(0, 2, "\t"), (value, indent) => {
      const text = JSON.stringify({ v: value, s: '"[{\\' }, null, indent);
      assert.deepEqual(pairBrackets(text), pairBracketsByCharacter(text));
    }),
    { numRuns: 200 },
  );
});

test("pairBrackets: millions of strings between two brackets, and strings of a megabyte", () => {
  // Four million strings overflow the expression's backtracking stack: the loop over characters takes over.
  for (const count of [1_000_000, 4_000_000]) {
    const many = `[${'"a\\"b",'.repeat(count)}{"x":[1]}]`;
    assert.deepEqual(pairBrackets(many), {
      opens: [0, many.length - 10, many.length - 5],
      closes: [many.length - 1, many.length - 2, many.length - 3],
    });
  }
  const long = `{"a":"${"x".repeat(1_000_000)}","b":["${'\\"'.repeat(100_000)}"],"c":{}}`;
  assert.deepEqual(pairBrackets(long), pairBracketsByCharacter(long));
  assert.equal(pairBrackets(long).opens.length, 3);
});

test("the index finds every path in any order, also through containers nested deeper than it skips", () => {
  // A value nested 8 to 14 levels (beyond SKIP_DEPTH, where the index pairs the text's brackets)
  // beside the arbitrary values, and the paths asked for shuffled: a listing goes on where it stopped.
  const deep = fc.integer({ min: 8, max: 14 }).map((depth) => {
    let value: unknown = ["[{", { "}": "]" }];
    for (let d = 0; d < depth; d++) value = d % 2 ? [value, d] : { [`k${d}`]: value, n: d };
    return value;
  });
  fc.assert(
    fc.property(
      json,
      json,
      deep,
      fc.constantFrom(0, 2, "\t"),
      fc.integer(),
      (before, after, nested, indent, seed) => {
        const value = { before, nested, after, tail: [before, nested] };
        const text = JSON.stringify(value, null, indent);
        const paths = pathsOf(value);
        const order = paths.map((path, i) => ({ path, key: (Math.imul(i + 1, 2654435761) ^ seed) >>> 0 }));
        order.sort((a, b) => a.key - b.key);
        const index = new PositionIndex(text);
        for (const { path } of order) {
          for (const atKey of [false, true]) {
            assert.equal(index.find(path, atKey)?.offset, byTree(text, path, atKey), JSON.stringify(path));
          }
          const end = index.find(path)?.end;
          const node = byTree(text, path, false);
          if (node !== undefined) assert.equal(JSON.parse(text.slice(node, end)) !== undefined, true);
        }
      },
    ),
    { numRuns: 100 },
  );
});

test("the index: a container of millions of strings (the expression's stack overflows) ends where its bracket is", () => {
  const count = 4_000_000;
  const many = `{"a":[${'"a\\"b",'.repeat(count)}{"x":[1]}],"b":2}`;
  const index = new PositionIndex(many);
  assert.equal(index.find(["b"])?.offset, many.length - 2);
  assert.equal(index.find(["a", count, "x", 0])?.offset, many.length - 11);
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

/** Line starts as one loop over the text lists them (CR, CRLF and LF each end a line): the reference for LineIndex. */
function referenceLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

test("positionAt and codeFrame: lines found by blocks give every offset the line and column of a loop over every character", () => {
  const pieces = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r", "a", "bc", "\t", " ", "x".repeat(120));
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 400 }), fc.boolean(), (chunks, noCr) => {
      const text = noCr ? chunks.join("").replace(/\r/g, "") : chunks.join("");
      const source: SourceFile = { name: "t.json", text };
      const starts = referenceLineStarts(text);
      for (let offset = -2; offset <= text.length + 2; offset++) {
        let line = 0;
        while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
        const expected = { line: line + 1, column: offset - starts[line]! + 1 };
        assert.deepEqual(positionAt(source, offset), expected, `${JSON.stringify(text)} at ${offset}`);
      }
      for (let line = 1; line <= starts.length; line += 7) {
        const lineText = (n: number) =>
          text.slice(starts[n - 1] ?? 0, starts[n] ?? text.length).replace(/(\r\n|\r|\n)$/, "");
        const frame = codeFrame(source, line, 1).split("\n");
        const shown = frame
          .filter((row) => !/^ +\|/.test(row))
          .map((row) => row.replace(/^[> ] +\d+ \| /, ""));
        const expected = [];
        for (let n = Math.max(1, line - 1); n <= Math.min(starts.length, line + 1); n++) {
          const raw = lineText(n).replace(/\t/g, " ");
          expected.push(raw.length <= 100 ? raw : `${raw.slice(0, 100)}…`);
        }
        assert.deepEqual(shown, expected, `${JSON.stringify(text)} line ${line}`);
      }
    }),
    { numRuns: 300 },
  );
});

test("positionAt: a CRLF is one line end, also where splitting it would make up a last block of lines", () => {
  // Fewer than a block's lines after the last block, but as many once a CRLF counted as two.
  for (const tail of ["b\r\n".repeat(31), `${"b\r\n".repeat(20)}${"c\r".repeat(11)}`, "\r\n".repeat(31)]) {
    const text = `${"a\n".repeat(32)}${tail}end`;
    const source: SourceFile = { name: "t.json", text };
    const starts = referenceLineStarts(text);
    for (let offset = 0; offset <= text.length; offset++) {
      let line = 0;
      while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
      assert.deepEqual(positionAt(source, offset), { line: line + 1, column: offset - starts[line]! + 1 });
    }
    assert.equal(codeFrame(source, starts.length, 1).split("\n")[1], `> ${starts.length} | end`);
  }
});
