import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parseWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { assertOptions } from "./budget.ts";
import type { Json } from "./json-tree.ts";
import { layoutArb, mutate, mutationsArb, render } from "./mutations.ts";

/**
 * validateWorld hands its rules a deeply frozen world (the per-world lookups
 * are kept only for frozen values). The shape walk freezes what it walks and
 * a last pass freezes the rest, skipping what is frozen already: so a node
 * frozen before everything under it would leave part of the world writable.
 * Whatever the file holds (unknown fields, wrong types, a union branch that
 * cannot be chosen, `__proto__` keys), nothing under the parsed value or the
 * shaped world may stay writable.
 */

const base = JSON.parse(
  readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"),
) as Json;

/** The first object or array under `value` that is not frozen, as a path, or undefined. */
function firstUnfrozen(value: unknown): string | undefined {
  const stack: { node: unknown; path: string }[] = [{ node: value, path: "" }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (!Object.isFrozen(node)) return path || "(root)";
    for (const key of Object.keys(node))
      stack.push({ node: (node as Record<string, unknown>)[key], path: `${path}/${key}` });
  }
  return undefined;
}

function assertAllFrozen(text: string): void {
  const loaded = parseWorld(text, "world.json");
  const result = validateWorld(loaded);
  assert.equal(firstUnfrozen(loaded.value), undefined, "the parsed world has a writable node");
  assert.equal(firstUnfrozen(result.shaped), undefined, "the shaped world has a writable node");
}

describe("validateWorld freezes the whole world", () => {
  test("objects under unknown fields, wrong types and unknown condition types", () => {
    const world = structuredClone(base) as Record<string, Record<string, Record<string, unknown>>>;
    const [npc] = Object.values(world.npcs!);
    npc!.mood = { deep: { deeper: [{ x: 1 }] } };
    const [trigger] = Object.values(world.triggers!);
    trigger!.conditions = [{ type: "no-such-type", extra: { a: [1, { b: 2 }] } }, [{ nested: {} }]];
    trigger!.effects = { notAnArray: { x: [] } };
    (world as Record<string, unknown>).unknownSection = { a: { b: [{}] } };
    (world as Record<string, unknown>).settings = [{ wrong: { type: [] } }];
    assertAllFrozen(JSON.stringify(world, null, 2));
  });

  test("a `__proto__` key holding objects", () => {
    const text = JSON.stringify(base, null, 2).replace("{", '{"__proto__": {"a": {"b": [{}]}},');
    assertAllFrozen(text);
  });

  test("mutated base world: nothing stays writable", () => {
    fc.assert(
      fc.property(mutationsArb, layoutArb, (mutations, layout) =>
        assertAllFrozen(render(mutate(base, mutations), layout)),
      ),
      assertOptions(0.05),
    );
  });
});
