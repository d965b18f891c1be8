import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  compactJsonLength,
  compactJsonWithin,
  escapeSlack,
  prettyJsonLength,
  prettyJsonWithin,
} from "./json-length.ts";

const compact = (value: unknown) => JSON.stringify(value)?.length;
const pretty = (value: unknown) => JSON.stringify(value, null, 2)?.length;

describe("compactJsonLength and prettyJsonLength", () => {
  it("agree with JSON.stringify on any JSON value, escapes and lone surrogates included", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(compactJsonLength(value), compact(value));
        assert.equal(prettyJsonLength(value), pretty(value));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.object({ key: fc.string({ unit: "binary" }), values: [fc.string({ unit: "binary" })] }),
        (value) => {
          assert.equal(compactJsonLength(value), compact(value));
          assert.equal(prettyJsonLength(value), pretty(value));
        },
      ),
    );
  });

  it("agree with JSON.stringify on what a world built in code may hold", () => {
    const values: unknown[] = [
      { a: undefined, b: () => 1, c: Symbol("s"), d: 1 },
      [undefined, () => 1, Symbol("s"), Number.NaN, -0, Number.POSITIVE_INFINITY],
      // biome-ignore lint/suspicious/noSparseArray: a hole is written as null
      [1, , 3],
      { when: new Date(0), map: new Map() },
      { toJSON: () => "x" },
      Object.assign(Object.create(null), { a: [1, 2.5, 1e21, -3, 1234567890123] }),
      { a: {}, b: [], c: [{}], d: { e: [[]] } },
      { "\u2028": '\ud83d\ude00 \ud800 \n\t\u0001"\\' },
      "top",
      undefined,
    ];
    for (const value of values) {
      assert.equal(compactJsonLength(value), compact(value));
      assert.equal(prettyJsonLength(value), pretty(value));
    }
  });

  it("agree with JSON.stringify when Object.prototype has an enumerable key", () => {
    Object.defineProperty(Object.prototype, "polluted", { value: 1, enumerable: true, configurable: true });
    try {
      for (const value of [
        { a: 1, b: { c: "d" } },
        [{ e: [] }],
        Object.assign(Object.create(null), { f: 1 }),
      ]) {
        assert.equal(compactJsonLength(value), compact(value));
        assert.equal(prettyJsonLength(value), pretty(value));
      }
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it("throws as JSON.stringify does on a cycle or a bigint", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => compactJsonLength(cycle), TypeError);
    assert.throws(() => prettyJsonLength({ n: 1n }), TypeError);
  });
});

/** JSON text with every character of every string and key written as a \u escape. */
function escapedEverywhere(value: unknown): string {
  const text = (s: string) =>
    `"${[...Array(s.length).keys()].map((i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"`;
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) return `[${value.map(escapedEverywhere).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${text(k)}:${escapedEverywhere(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

describe("compactJsonWithin and prettyJsonWithin, with escapeSlack of the text", () => {
  /** Both answers at the two edges: within at the length plus the slack, never one under the length. */
  const assertEdges = (text: string) => {
    const value: unknown = JSON.parse(text);
    const slack = escapeSlack(text);
    for (const [within, length] of [
      [compactJsonWithin, compact(value)],
      [prettyJsonWithin, pretty(value)],
    ] as const) {
      assert.equal(within(value, length! - 1, slack), false);
      if (Number.isFinite(slack)) assert.equal(within(value, length! + slack, slack), true);
    }
  };

  it("never say within when JSON.stringify writes more, escapes and lone surrogates included", () => {
    const strings = fc.string({ unit: "binary" });
    const values = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(strings, fc.oneof(strings, fc.array(strings), fc.integer())),
    );
    fc.assert(
      fc.property(values, (value) => {
        assertEdges(JSON.stringify(value));
        assertEdges(JSON.stringify(value, null, 2));
        assertEdges(escapedEverywhere(value));
      }),
      { numRuns: 300 },
    );
  });

  it("count 5 characters per backslash of a well-formed text, and give no bound otherwise", () => {
    assert.equal(escapeSlack('{"a": "b"}'), 0);
    assert.equal(escapeSlack('{"a": "\\n\\\\ \\u0001"}'), 20);
    assert.equal(escapeSlack('{"a": "\ud83d\ude00"}'), 0);
    assert.equal(escapeSlack('{"a": "\ud800"}'), Number.POSITIVE_INFINITY);
    assert.equal(escapeSlack(undefined), Number.POSITIVE_INFINITY);
  });

  it("say not within for what the walk cannot be sure of", () => {
    assert.equal(compactJsonWithin({ when: new Date(0) }, 1000, 0), false);
    assert.equal(prettyJsonWithin({ n: 1n }, 1000, 0), false);
    assert.equal(compactJsonWithin(undefined, 1000, 0), false);
    const throwing = Object.defineProperty({}, "a", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    assert.equal(compactJsonWithin(throwing, 1000, 0), false);
  });
});
