import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

/**
 * Issue 37: docs/ is read by authors who have no spec document. A page says the rule itself, or
 * links the page of docs/format.md that says it; it never points at "spec 2.2" or "the spec".
 */
const DOCS = new URL("../docs/", import.meta.url);

test("no page of docs/ points at the spec document instead of saying the rule", () => {
  const found: string[] = [];
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md"))) {
    const lines = readFileSync(new URL(file, DOCS), "utf8").split("\n");
    lines.forEach((line, i) => {
      // "spec 2.2", "Spec 8", "(spec)", "the spec", the spec's file name; not file names like effect-spec.ts.
      if (/(?<![\w-])(?:the spec|spec\s+\d|world-config-v33)(?![\w-])/i.test(line))
        found.push(`${file}:${i + 1}: ${line}`);
    });
  }
  assert.deepEqual(found, []);
});
