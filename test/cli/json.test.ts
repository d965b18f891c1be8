import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { check } from "../../src/cli/check.ts";
import { formatJson } from "../../src/cli/format/json.ts";
import { BASE_WORLD, captureIo, FIXTURES } from "./helpers.ts";

const DIAGNOSTIC_KEYS = ["code", "severity", "message", "path", "line", "column"];

async function jsonOf(file: string) {
  const { io, stdout } = captureIo();
  const code = await check(file, { format: "json" }, io);
  assert.ok(stdout().endsWith("}\n"), "one JSON document and a newline");
  return { code, report: JSON.parse(stdout()) };
}

test("json: exactly the documented keys, in order, for the report and each diagnostic", async () => {
  const file = join(FIXTURES, "broken.world.json");
  const { code, report } = await jsonOf(file);
  assert.equal(code, 1);
  assert.deepEqual(Object.keys(report), ["file", "errorCount", "warningCount", "diagnostics"]);
  assert.equal(report.file, file);
  assert.equal(report.diagnostics.length, 3);
  for (const d of report.diagnostics) {
    assert.deepEqual(Object.keys(d), DIAGNOSTIC_KEYS);
    assert.ok(
      Array.isArray(d.path) && d.path.every((s: unknown) => typeof s === "string" || typeof s === "number"),
    );
    assert.ok(Number.isInteger(d.line) && Number.isInteger(d.column));
  }
  assert.deepEqual(report.diagnostics[0], {
    code: "keys/name-mismatch",
    severity: "error",
    message:
      'Key "Rope" differs from its name "rope" in items. Make them byte-identical (same case and spaces): rename the key or the name.',
    path: ["items", "Rope", "name"],
    line: 80,
    column: 15,
  });
  assert.deepEqual([report.errorCount, report.warningCount], [2, 1]);
});

test("json: a clean world has an empty list", async () => {
  const { code, report } = await jsonOf(BASE_WORLD);
  assert.equal(code, 0);
  assert.deepEqual(report, { file: BASE_WORLD, errorCount: 0, warningCount: 0, diagnostics: [] });
});

test("json: related positions are left out and unknown positions are null", () => {
  const text = formatJson({
    file: "w.json",
    source: undefined,
    diagnostics: [
      {
        code: "x/y",
        severity: "warning",
        message: "m",
        path: ["a", 0],
        line: null,
        column: null,
        related: [{ message: "here", path: [], line: 1, column: 1 }],
      },
    ],
    errorCount: 0,
    warningCount: 1,
  });
  assert.equal(
    text,
    '{"file":"w.json","errorCount":0,"warningCount":1,"diagnostics":[{"code":"x/y","severity":"warning","message":"m","path":["a",0],"line":null,"column":null}]}\n',
  );
});
