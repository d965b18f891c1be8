import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BASE_WORLD, FIXTURES, ROOT } from "./helpers.ts";

// The few tests that start the real program: the launcher, process.exitCode and real stdin.
const BIN = join(ROOT, "bin/taleforge.js");

function taleforge(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("bin/taleforge.js checks a clean world: exit 0", () => {
  assert.deepEqual(taleforge(["check", BASE_WORLD]), { code: 0, stdout: "✔ no problems\n", stderr: "" });
});

test("bin/taleforge.js reads stdin with -: a broken world exits 1", () => {
  const result = taleforge(
    ["check", "--format", "json", "-"],
    readFileSync(join(FIXTURES, "broken.world.json"), "utf8"),
  );
  assert.equal(result.code, 1);
  assert.equal(JSON.parse(result.stdout).errorCount, 2);
});

test("bin/taleforge.js: a usage error exits 2 with one line", () => {
  const result = taleforge(["check", "--bogus"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "taleforge check: unknown option '--bogus'. Run \"taleforge check --help\" for usage.\n",
  );
});
