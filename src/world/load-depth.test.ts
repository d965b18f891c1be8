import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_DEPTH, parseWorld } from "./load.ts";

/** A top-level object holding `depth` levels in all (itself included), objects and arrays in turn. */
function nestedText(depth: number): string {
  let open = "";
  let close = "";
  for (let level = 2; level <= depth; level++) {
    const object = level % 2 === 0;
    open += object ? '{"k": ' : "[";
    close = (object ? "}" : "]") + close;
  }
  return `{"configVersion": "V33", "deep": ${open}1${close}}`;
}

const codes = (text: string) => parseWorld(text, "t.json").diagnostics.map((d) => d.code);

test("nesting up to the limit loads; one level more is json/too-deep, wherever it is", () => {
  assert.ok(!codes(nestedText(MAX_DEPTH)).includes("json/too-deep"));
  assert.deepEqual(codes(nestedText(MAX_DEPTH + 1)), ["json/too-deep"]);
  assert.deepEqual(codes(nestedText(5000)), ["json/too-deep"]);
  // The deep value after shallow ones and inside an array of them.
  const deep = nestedText(MAX_DEPTH + 1).slice(1);
  assert.deepEqual(codes(`{"a": [1, {"b": []}, [[]]], "z": [{}, {${deep}]}`), ["json/too-deep"]);
});

test("keys are counted under every object and array: a duplicate deep in the text is found", () => {
  const text = `{"configVersion": "V33", "a": [[{"x": {"y": [1, {"k": 1, "k": 2}]}}]]}`;
  assert.deepEqual(
    codes(text).filter((code) => code === "json/duplicate-key"),
    ["json/duplicate-key", "json/duplicate-key"],
  );
});
