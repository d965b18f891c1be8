/**
 * Runs every *.test.ts under src/ and test/ with node:test. Node 20's --test
 * does not expand globs itself (a quoted "src/**\/*.test.ts" is looked up as a
 * file name), so the files are listed here. Pass paths to run only those.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const ROOTS = ["src", "test"];

function testFiles(): string[] {
  return ROOTS.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts") && !file.split(/[\\/]/).includes("node_modules"))
      .map((file) => join(root, file)),
  ).sort();
}

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : testFiles();
const result = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "--test",
    "--test-reporter=spec",
    // Node's default leaves one core idle for the runner, which barely works: on two cores that halves the speed.
    `--test-concurrency=${availableParallelism()}`,
    ...files,
  ],
  {
    stdio: "inherit",
  },
);
process.exitCode = result.status ?? 1;
