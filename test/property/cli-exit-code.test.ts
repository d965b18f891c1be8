import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import type { CliIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/main.ts";
import { assertOptions } from "./budget.ts";
import type { Json } from "./json-tree.ts";
import { layoutArb, mutate, mutationsArb, render } from "./mutations.ts";
import { checkText } from "./soundness.ts";

/**
 * `taleforge check -` on random mutations of the base world, run in-process
 * through the real command line: the exit code is always 0, 1 or 2, and it is
 * exactly what the library's own result implies (1 when there is an error,
 * else 0) in every output format; a report that is JSON parses as JSON.
 * Input the library cannot check (nesting deep enough to overflow a
 * recursive parser) must still get a code, not a crash.
 */

const base = JSON.parse(
  readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"),
) as Json;

function stdinIo(text: string) {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: (chunk) => {
      out.stdout += chunk;
    },
    stderr: (chunk) => {
      out.stderr += chunk;
    },
    isTTY: false,
    env: {},
    readStdin: async () => text,
  };
  return { io, out };
}

/** 1 when the library finds an error, else 0. The library never throws on any text: if it does, the property fails. */
function expectedCode(text: string): 0 | 1 {
  return checkText(text, "<stdin>").errorCount > 0 ? 1 : 0;
}

test("taleforge check - exits 0, 1 or 2, as the check result implies, in every format", async () => {
  const input = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(mutationsArb, layoutArb).map(([m, layout]) => render(mutate(base, m), layout)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    // Deep enough to overflow a recursive parser: the command must still answer with a code.
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
    },
  );
  const format = fc.constantFrom("stylish", "json", "sarif");
  await fc.assert(
    fc.asyncProperty(input, format, async (text, name) => {
      const { io, out } = stdinIo(text);
      const code = await run(["check", "-", "--format", name], io);
      assert.ok(code === 0 || code === 1 || code === 2, `exit code ${code}`);
      const expected = expectedCode(text);
      assert.equal(code, expected, `exit code ${code}, expected ${expected}; stderr: ${out.stderr}`);
      assert.equal(out.stderr, "", "a world that can be checked prints nothing on stderr");
      if (name !== "stylish")
        assert.doesNotThrow(() => JSON.parse(out.stdout), `${name} output must be JSON`);
    }),
    assertOptions(0.025),
  );
});
