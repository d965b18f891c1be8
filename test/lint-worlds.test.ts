import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { lintWorld } from "../src/world/lint/index.ts";
import { loadWorld } from "../src/world/load.ts";
import { validateWorld } from "../src/world/validate.ts";
import { SHARED_WORLDS, sharedWorldFiles, sharedWorldsAbsent } from "./helpers/author.ts";
import { assertSound } from "./property/soundness.ts";

/**
 * `taleforge lint` on real worlds: the example world, and every world and
 * mod of shared/worlds beside the repository (skipped when it is absent).
 * Lint must never crash, must report everything `check` reports, and every
 * diagnostic must be sound (soundness.ts).
 */

const HARBOR = fileURLToPath(new URL("../examples/harbor.world.json", import.meta.url));

async function lintAndCheck(file: string) {
  const loaded = await loadWorld(file);
  const linted = lintWorld(loaded);
  assertSound(readFileSync(file, "utf8"), linted);
  const checked = validateWorld(await loadWorld(file));
  const fromCheck = linted.diagnostics.filter((d) => !d.code.startsWith("lint/"));
  assert.deepEqual(fromCheck, checked.diagnostics, "lint reports exactly what check reports, and more");
  return linted;
}

describe("lint on the example world", () => {
  test("examples/harbor.world.json: no error, and no lint finding", async () => {
    const result = await lintAndCheck(HARBOR);
    const listed = result.diagnostics.map((d) => `${d.line}: ${d.code} ${d.message}`).join("\n");
    assert.equal(result.errorCount, 0, listed);
    assert.deepEqual(
      result.diagnostics.filter((d) => d.code.startsWith("lint/")).map((d) => d.code),
      [],
      listed,
    );
  });
});

describe("lint on every shared world", () => {
  const files = sharedWorldFiles();
  test("the shared worlds are there", {
    skip: sharedWorldsAbsent(),
  }, () => {
    assert.ok(files.length > 0, `no world file in ${SHARED_WORLDS}`);
  });
  for (const file of files) {
    test(basename(file), async () => {
      await lintAndCheck(file);
    });
  }
});
