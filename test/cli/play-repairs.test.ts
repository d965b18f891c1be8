import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadWorld } from "../../src/world/load.ts";
import { repairWorld } from "../../src/world/repair.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { playWith } from "./helpers.ts";

/**
 * Issue 35: a world the platform plays is played. Repairable errors (missing
 * maps, a map written as an array, a trait requirement without amount, a name
 * that differs from its key) are repaired by `play` with one warning line
 * each; `check` still reports them as errors; `--strict` refuses.
 */

const REPAIRABLE = fileURLToPath(new URL("../fixtures/real-worlds/repairable.world.json", import.meta.url));

describe("play what the platform plays", () => {
  test("check reports every repairable problem as an error", async () => {
    const checked = validateWorld(await loadWorld(REPAIRABLE));
    const codes = checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
    assert.deepEqual([...new Set(codes)].sort(), [
      "keys/name-mismatch",
      "shape/missing-field",
      "shape/wrong-type",
    ]);
    assert.equal(codes.length, 8);
  });

  test("the repaired copy checks clean, and the file's own value is left as it was", async () => {
    const loaded = await loadWorld(REPAIRABLE);
    const { loaded: repaired, repairs } = repairWorld(loaded);
    assert.equal(repairs.length, 8);
    assert.equal(validateWorld(repaired).errorCount, 0);
    assert.ok(Array.isArray(loaded.value!.traitCategories), "the original is untouched");
    const again = repairWorld(repaired);
    assert.equal(again.repairs.length, 0, "a repaired world needs nothing more");
  });

  test("play plays it, with one warning line naming each repair", async () => {
    const played = await playWith([REPAIRABLE, "--player", "Kit", "--no-save"], ["look around", "/quit"]);
    assert.equal(played.code, 0, played.err);
    const lines = played.err.split("\n").filter((l) => l.includes("repaired:"));
    assert.equal(lines.length, 8, played.err);
    for (const what of [
      /added the missing map "worldLore" as \{\}/,
      /"traitCategories", written as an array, as a map keyed by name/,
      /trait requirement 1 of ability "Steady Hands" the amount 1/,
      /named the record "Rope" of "items" after its key/,
    ])
      assert.ok(
        lines.some((l) => what.test(l)),
        `${what} in:\n${played.err}`,
      );
    assert.match(played.out, /You look around\./);
  });

  test("--strict refuses it", async () => {
    const played = await playWith(
      [REPAIRABLE, "--player", "Kit", "--no-save", "--strict"],
      ["look around", "/quit"],
    );
    assert.equal(played.code, 1);
    assert.match(played.err, /--strict plays only a world without errors/);
    assert.doesNotMatch(played.out, /You look around/);
  });
});
