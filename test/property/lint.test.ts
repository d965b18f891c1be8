import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { lintWorld } from "../../src/world/lint/index.ts";
import { parseWorld } from "../../src/world/load.ts";
import { assertOptions } from "./budget.ts";
import type { Json } from "./json-tree.ts";
import { layoutArb, mutate, mutationsArb, render } from "./mutations.ts";
import { assertSound } from "./soundness.ts";
import { worldArb } from "./trigger-vocabulary.ts";

/**
 * Whatever an author's file holds, `taleforge lint` never throws, no rule
 * (check's or lint's) crashes, and every diagnostic is sound (soundness.ts).
 * Random edits of valid worlds, and random trigger maps (scripts included)
 * that the reachability analysis has to follow, with edits on top.
 */

const base = JSON.parse(
  readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"),
) as Json;
const HARBOR = new URL("../../examples/harbor.world.json", import.meta.url);

function lintText(text: string) {
  return lintWorld(parseWorld(text, "property.world.json"));
}

function lintProperty(world: fc.Arbitrary<Json>) {
  return fc.property(world, mutationsArb, layoutArb, (value, mutations, layout) => {
    const text = render(mutate(value, mutations), layout);
    assertSound(text, lintText(text));
  });
}

describe("lint on hostile input", () => {
  test("mutated base world: never throws, diagnostics sound", () => {
    fc.assert(lintProperty(fc.constant(base)), assertOptions(0.1));
  });

  test("random trigger maps, scripts included: never throws, diagnostics sound", () => {
    fc.assert(
      fc.property(worldArb({ scripts: true }), (world) => {
        const text = JSON.stringify(world, null, 2);
        const result = lintText(text);
        assertSound(text, result);
        assert.ok(result.diagnostics.every((d) => d.code !== "internal/rule-failed"));
      }),
      assertOptions(0.1),
    );
  });

  test("random trigger maps, then mutated: never throws, diagnostics sound", () => {
    fc.assert(lintProperty(worldArb({ scripts: true }) as fc.Arbitrary<Json>), assertOptions(0.1));
  });

  // In the repository: read as it is (a missing file fails here rather than skipping).
  const harbor = JSON.parse(readFileSync(HARBOR, "utf8")) as Json;
  test("mutated harbor example world: never throws, diagnostics sound", () => {
    fc.assert(lintProperty(fc.constant(harbor)), assertOptions(0.03));
  });

  test("scripts that nest, loop or are huge", () => {
    const scripts = [
      `${"(".repeat(5000)}1${")".repeat(5000)}`,
      `effects.push(${"[".repeat(3000)}${"]".repeat(3000)});`,
      "while (true) {}",
      `storage.x = 1;\n`.repeat(20000),
      "triggers.__proto__ = {}; storage.__proto__ = 1; effects.__proto__.push(1);",
      'effects.push({ __proto__: { type: "quest-init" }, value: "Lost Sheep" });',
      'effects.push({ type: "quest-init", operator: "set", value: "__proto__" });',
    ];
    for (const script of scripts) {
      const world = structuredClone(base) as Record<string, Record<string, unknown>>;
      world.triggers!.start_sheep = { ...(world.triggers!.start_sheep as object), script };
      const text = JSON.stringify(world, null, 2);
      assertSound(text, lintText(text));
    }
  });
});
