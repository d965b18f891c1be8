import assert from "node:assert/strict";
import { test } from "node:test";
import { absentObjectLine } from "./attempt.ts";

test("a thing that is not in the scene is named in the right number", () => {
  const scene = "Iron steps spiral up the inside of the tower, slick with condensation.";
  assert.equal(absentObjectLine("search the rocks", scene), "There are no rocks here to search.");
  assert.equal(absentObjectLine("take the barrels", scene), "There are no barrels here to take.");
  assert.equal(absentObjectLine("take the lamp key", scene), "There is no key here to take.");
  for (const one of ["glass", "compass", "lens", "cactus"])
    assert.equal(absentObjectLine(`take the ${one}`, scene), `There is no ${one} here to take.`);
  // What the scene names is not said to be absent.
  assert.equal(absentObjectLine("search the steps", scene), null);
});
