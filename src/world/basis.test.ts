import assert from "node:assert/strict";
import { test } from "node:test";
import { BASIS_CODES, basisOf } from "./basis.ts";
import { CATALOGUE } from "./catalogue.ts";

const severity = (code: string) => CATALOGUE.find((info) => info.code === code)?.severity;

test("every code the basis table names is in the catalogue", () => {
  const codes = new Set(CATALOGUE.map((info) => info.code));
  assert.deepEqual(
    BASIS_CODES.filter((code) => !codes.has(code)),
    [],
  );
});

test("the references the platform's codec checks are errors (issue 35)", () => {
  const references = [
    "npc/unknown-location",
    "npc/unknown-faction",
    "npc/unknown-type",
    "item/unknown-bonus-variable",
    "quest/unknown-location",
    "trait/unknown-ability",
    "trait/unknown-skill",
    "trait/unknown-resource",
    "trait/category-unknown-trait",
    "location/unknown-region",
    "story-start/unknown-item",
    "story-start/unknown-quest",
  ];
  for (const code of references) {
    assert.equal(basisOf(code).source, "codec", code);
    assert.equal(severity(code), "error", code);
  }
  assert.equal(severity("quest/no-init-trigger"), "error", "spec 1.7");
  assert.equal(basisOf("quest/no-init-trigger").source, "spec");
});

test("what the codec does not check stays a warning", () => {
  for (const code of ["item/unknown-category", "skill/unknown-attribute", "compat/missing-field"])
    assert.equal(severity(code), "warning", code);
});

test("every code has a source and a reason", () => {
  for (const info of CATALOGUE) {
    const basis = basisOf(info.code);
    assert.ok(["codec", "spec", "taleforge"].includes(basis.source), info.code);
    assert.ok(basis.reason.length > 10, info.code);
  }
});
