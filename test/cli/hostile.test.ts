import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { check } from "../../src/cli/check.ts";
import { captureIo } from "./helpers.ts";

/** Checks text from stdin as JSON and returns the exit code, the parsed report and stderr. */
async function checkText(text: string) {
  const { io, stdout, stderr } = captureIo({ stdin: text });
  const code = await check("-", { format: "json" }, io);
  return { code, report: stdout() === "" ? undefined : JSON.parse(stdout()), stderr: stderr() };
}

function codes(report: { diagnostics: { code: string }[] }): string[] {
  return report.diagnostics.map((d) => d.code);
}

describe("hostile input never crashes check", () => {
  test("binary garbage is reported as invalid JSON", async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    const { code, report } = await checkText(bytes.toString("utf8"));
    assert.equal(code, 1);
    assert.deepEqual(codes(report), ["json/syntax"]);
  });

  for (const [name, text, actual] of [
    ["array", "[1, 2, 3]", "an array"],
    ["string", '"a world"', 'the string "a world"'],
    ["null", "null", "null"],
    ["number", "33", "the number 33"],
  ] as const) {
    test(`a top-level ${name} is not a world`, async () => {
      const { code, report } = await checkText(text);
      assert.equal(code, 1);
      assert.deepEqual(codes(report), ["world/not-object"]);
      assert.ok(
        report.diagnostics[0].message.startsWith(`The top level is ${actual};`),
        report.diagnostics[0].message,
      );
    });
  }

  test("a 5 MB deeply nested array gives a report or one line, never a stack trace", async () => {
    const depth = 2_500_000;
    for (const text of ["[".repeat(depth) + "]".repeat(depth), "[".repeat(depth * 2)]) {
      const { code, report, stderr } = await checkText(text);
      assert.equal(text.length, 5_000_000);
      if (report) {
        assert.equal(code, 1);
        assert.ok(report.errorCount > 0);
      } else {
        assert.equal(code, 2);
        assert.match(stderr, /^taleforge: could not check stdin: its arrays or objects nest too deeply/);
        assert.doesNotMatch(stderr, /^\s+at /m);
      }
    }
  });

  test("any text: exit 0 or 1 and a JSON report whose counts match its diagnostics", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ configVersion: "V33", heroesVersion: 33, x: v })),
        ),
        async (text) => {
          const { code, report } = await checkText(text);
          assert.ok(code === 0 || code === 1, `exit ${code}`);
          const errors = report.diagnostics.filter(
            (d: { severity: string }) => d.severity === "error",
          ).length;
          assert.equal(report.errorCount, errors);
          assert.equal(report.warningCount, report.diagnostics.length - errors);
          assert.equal(code, errors > 0 ? 1 : 0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
