import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { SECTIONS } from "../../src/world/schema/world.ts";
import { assertOptions } from "./budget.ts";
import { copyJson, isObject, type Json, sitesOf } from "./json-tree.ts";
import { layoutArb, mutate, mutationsArb, render } from "./mutations.ts";
import { assertSound, checkText } from "./soundness.ts";

/**
 * Whatever an author's file holds, checking it never throws, no rule crashes,
 * and every diagnostic can be printed and acted on (see soundness.ts for the
 * exact contract). Run counts: budget.ts.
 */

const BASE_FILE = new URL("../fixtures/base.world.json", import.meta.url);
const HARBOR_FILE = new URL("../../examples/harbor.world.json", import.meta.url);

const base = JSON.parse(readFileSync(BASE_FILE, "utf8")) as Json;

/** The example world: in the repository, so read as it is; a file that is missing or not JSON fails here. */
const harbor = JSON.parse(readFileSync(HARBOR_FILE, "utf8")) as Json;

function mutationProperty(world: Json) {
  return fc.property(mutationsArb, layoutArb, (mutations, layout) => {
    const text = render(mutate(world, mutations), layout);
    assertSound(text, checkText(text));
  });
}

describe("random mutations of valid worlds", () => {
  test("the base world checks without errors before it is mutated", () => {
    const result = checkText(JSON.stringify(base, null, 2));
    assert.equal(result.errorCount, 0, result.diagnostics.map((d) => d.message).join("\n"));
    assertSound(JSON.stringify(base, null, 2), result);
  });

  test("mutated base world: never throws, diagnostics sound", () => {
    fc.assert(mutationProperty(base), assertOptions(0.45));
  });

  test("mutated harbor example world: never throws, diagnostics sound", () => {
    fc.assert(mutationProperty(harbor), assertOptions(0.2));
  });
});

describe("keys that JavaScript treats specially", () => {
  // zod skips a "__proto__" key when it checks an object or a record (so that parsing cannot
  // replace a prototype), so whatever is written under that key reaches the rules unchecked.
  // Every object of the base world gets one, with a few values: none may crash a rule.
  test('a "__proto__" key added to any object of the base world: never throws, diagnostics sound', () => {
    const objects = sitesOf(base).filter((site) => isObject(site.value));
    const failures: string[] = [];
    objects.forEach((site, at) => {
      for (const value of ["", null, 5, []] as Json[]) {
        const text = render(
          mutate(base, [{ kind: "insert", at, key: { literal: "__proto__" }, value }]),
          "pretty",
        );
        try {
          assertSound(text, checkText(text));
        } catch (error) {
          failures.push(
            `${JSON.stringify([...site.path, "__proto__"])} = ${JSON.stringify(value)}: ${(error as Error).message.split("\n")[0]}`,
          );
        }
      }
    });
    assert.equal(failures.length, 0, `${failures.length} failures:\n${failures.join("\n")}`);
  });
});

describe("arbitrary whole files", () => {
  const jsonish = fc.constantFrom(...'{}[]:,"\\ \n\r\t0123456789-+.eEtruefalsn/*\uFEFF\u2028'.split(""));
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.string({ unit: jsonish, maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
  );

  test("any text: parseWorld and validateWorld never throw", () => {
    fc.assert(
      fc.property(text, (t) => assertSound(t, checkText(t))),
      assertOptions(0.1),
    );
  });

  test("any JSON value as the whole file: never throws", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), layoutArb, (value, layout) => {
        const t = render(value as Json, layout);
        assertSound(t, checkText(t));
      }),
      assertOptions(0.075),
    );
  });

  test("a V33 world whose sections hold arbitrary JSON: never throws", () => {
    const names = Object.keys(SECTIONS);
    const baseSections = base as Record<string, Json>;
    // Each section is kept from the base world, dropped, or replaced with any JSON, so that
    // rules see valid neighbours next to nonsense.
    const section = fc.oneof(
      fc.constant("keep" as const),
      fc.constant("drop" as const),
      fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>,
    );
    const plan = fc.dictionary(fc.constantFrom(...names), section, { maxKeys: 12 });
    fc.assert(
      fc.property(plan, layoutArb, (choices, layout) => {
        const world = copyJson(base) as Record<string, Json>;
        for (const [name, choice] of Object.entries(choices)) {
          if (choice === "drop") delete world[name];
          else if (choice !== "keep") world[name] = choice;
          else if (name in baseSections) world[name] = copyJson(baseSections[name]!);
        }
        const t = render(world, layout);
        assertSound(t, checkText(t));
      }),
      assertOptions(0.075),
    );
  });

  test("a world text cut or spliced at random offsets: never throws, positions within the text", () => {
    const original = JSON.stringify(base, null, 2);
    const edit = fc.record({
      at: fc.nat({ max: original.length }),
      remove: fc.nat({ max: 40 }),
      insert: fc.constantFrom(
        "",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"',
        "\\",
        "\n",
        "//",
        "/*",
        "\u0000",
        "1e999",
      ),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        let t = original;
        for (const { at, remove, insert } of edits) {
          const cut = Math.min(at, t.length);
          t = t.slice(0, cut) + insert + t.slice(cut + remove);
        }
        assertSound(t, checkText(t));
      }),
      assertOptions(0.05),
    );
  });
});

describe("deeply nested input", () => {
  // Real files are never this deep, but a hostile or generated file can be, and a checker
  // that overflows its stack gives the author a crash instead of a message.
  const baseText = JSON.stringify(base, null, 2);
  const deep = fc.record({
    depth: fc.integer({ min: 1, max: 20_000 }),
    open: fc.constantFrom("[", '{"a":'),
    place: fc.constantFrom("unknown field", "region factions", "whole file", "unterminated"),
  });

  test("a value nested up to 20000 levels never crashes the check", () => {
    fc.assert(
      fc.property(deep, ({ depth, open, place }) => {
        const close = open === "[" ? "]" : "}";
        const value = open.repeat(depth) + (open === "[" ? "" : "1") + close.repeat(depth);
        const t =
          place === "whole file"
            ? value
            : place === "unterminated"
              ? open.repeat(depth)
              : place === "unknown field"
                ? baseText.replace('"configVersion": "V33",', `"configVersion": "V33", "deep": ${value},`)
                : baseText.replace('"realm": "Vale"', `"realm": "Vale", "factions": ${value}`);
        // The syntax tree check of soundness.ts is itself recursive: keep to the checker's output.
        assertSound(t, checkText(t), { spans: false });
      }),
      assertOptions(0.025),
    );
  });
});
