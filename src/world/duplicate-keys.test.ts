import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { baseWorld } from "../../test/helpers/world.ts";
import { findDuplicateKeys } from "./duplicate-keys.ts";
import { keyBound, keyBoundByColons, parseWorld } from "./load.ts";
import { validateWorld } from "./validate.ts";

const found = (text: string) =>
  findDuplicateKeys({ name: "t.json", text }).map((d) => [d.path.join("."), d.line, d.column, d.message]);

test("a duplicate key is reported at both positions, each naming the other", () => {
  assert.deepEqual(found('{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}'), [
    [
      "a",
      2,
      3,
      'Key "a" appears again in the top level at line 4, column 3; the later one wins, so this value is ignored. Remove one, or rename it.',
    ],
    [
      "a",
      4,
      3,
      'Key "a" already appears in the top level at line 2, column 3; this later one wins and that value is lost. Remove one, or rename it.',
    ],
  ]);
});

test("keys are compared per object, decoded; strings that look like keys are not keys", () => {
  assert.deepEqual(found('[{"a": 1}, {"a": 2}, {"b": {"a": 1}, "a": "\\"a\\": 1"}]'), []);
  assert.deepEqual(found('{"q": ["{\\"x\\": 1, \\"x\\": 2}"], "r": {"x": 1}}'), []);
  const escaped = found('{"regions": {"Vale": {}, "V\\u0061le": {}}}');
  assert.deepEqual(
    escaped.map(([path, line, column]) => [path, line, column]),
    [
      ["regions.Vale", 1, 14],
      ["regions.Vale", 1, 26],
    ],
  );
});

test("check reports a world's duplicate keys as warnings, and the world stays valid", () => {
  const text = JSON.stringify(baseWorld(), null, 2).replace(
    '"narratorStyle": "Plain and warm.",',
    '"narratorStyle": "Plain and warm.",\n  "narratorStyle": "Grim.",',
  );
  const result = validateWorld(parseWorld(text, "w.json"));
  const duplicates = result.diagnostics.filter((d) => d.code === "json/duplicate-key");
  assert.equal(duplicates.length, 2);
  assert.ok(duplicates.every((d) => d.severity === "warning" && d.path.join(".") === "narratorStyle"));
  assert.notEqual(duplicates[0]!.line, duplicates[1]!.line);
  assert.equal(result.errorCount, 0);
});

test("the loader's proof that no key repeats counts keys as written, whatever spacing or escapes", () => {
  const duplicates = (text: string) =>
    parseWorld(text, "w.json").diagnostics.filter((d) => d.code === "json/duplicate-key").length;
  const world = JSON.stringify(baseWorld(), null, 2);
  assert.equal(duplicates(world), 0);
  // A key spaced from its colon still counts; an escaped quote before a colon inside a string does not hide one.
  assert.equal(duplicates(world.replace("{", '{\n  "narratorStyle" \n\t : "Grim",')), 2);
  assert.equal(duplicates(world.replace("{", '{"narratorStyle":"Grim","x":"say \\":\\" now",')), 2);
  // A key Object.prototype is given (by some other code) must not make the parsed count look complete.
  Object.defineProperty(Object.prototype, "polluted", { value: 1, enumerable: true, configurable: true });
  try {
    // One object, one repeat: the inherited key would make up for the lost one exactly.
    assert.equal(duplicates('{"a": 1, "a": 2}'), 2);
    assert.equal(duplicates(world.replace("{", '{"narratorStyle":"Grim",')), 2);
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
});

test("the key bound by matches counts what the loop from colon to colon counts", () => {
  // Texts of quotes, colons, white space and letters: keys, colons in strings, colons after spaces.
  const piece = fc.constantFrom('"', ":", " ", "\n", "\r", "\t", "a", "{", "}", ",", '\\"', " :", '": ');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 120 }), (pieces) => {
      const text = pieces.join("");
      assert.equal(keyBound(text), keyBoundByColons(text));
    }),
    { numRuns: 2000 },
  );
  // Runs of more than one match's keys, with a colon in a string between them.
  const long = `{${Array.from({ length: 50 }, (_, i) => `"k${i}": "a:b"`).join(",\n")}}`;
  assert.equal(keyBound(long), 50);
  assert.equal(keyBoundByColons(long), 50);
});

test("a text whose parsed keys match the bound reports no duplicate; a repeated key past a run of keys is found", () => {
  const keys = Array.from({ length: 40 }, (_, i) => `"k${i}" : ${i}`);
  assert.deepEqual(
    parseWorld(`{${keys.join(",")}}`, "w.json").diagnostics.filter((d) => d.code === "json/duplicate-key"),
    [],
  );
  const repeated = parseWorld(`{${keys.join(",")}, "k3": 1}`, "w.json");
  assert.ok(repeated.diagnostics.some((d) => d.path.join(".") === "k3" && /appears again/.test(d.message)));
});
