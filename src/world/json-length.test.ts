import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compactJsonLength, prettyJsonLength } from "./json-length.ts";

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
