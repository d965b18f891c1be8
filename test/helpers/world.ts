import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { Diagnostic, JsonPath } from "../../src/world/diagnostic.ts";
import { parseWorld } from "../../src/world/load.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { formatMessage, type Rule, type WorldPatch } from "../../src/world/rule.ts";
import { validateWorld } from "../../src/world/validate.ts";

const BASE_TEXT = readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8");

/** A fresh copy of the small valid world that rule examples and tests patch. */
export function baseWorld(): Record<string, unknown> {
  return JSON.parse(BASE_TEXT);
}

/** Checks the base world with a patch applied, from pretty-printed text so that positions exist. */
export function checkPatch(patch: WorldPatch, rules?: readonly Rule[]) {
  return checkValue(applyPatch(baseWorld(), patch), rules);
}

export function checkValue(value: unknown, rules?: readonly Rule[]) {
  return validateWorld(parseWorld(JSON.stringify(value, null, 2), "test.world.json"), rules ? { rules } : {});
}

export interface InvalidCase {
  name?: string;
  patch: WorldPatch;
  errors: { path: JsonPath; messageId?: string; data?: Record<string, string | number> }[];
}

/**
 * ESLint-style rule tests: every valid patch gives no diagnostic of the rule;
 * every invalid patch gives exactly the listed ones, at the listed paths, each
 * with a source position.
 */
export function testRule(
  rule: Rule,
  cases: { valid: (WorldPatch | { name: string; patch: WorldPatch })[]; invalid: InvalidCase[] },
) {
  cases.valid.forEach((entry, i) => {
    const { name, patch } =
      "patch" in entry && "name" in entry
        ? (entry as { name: string; patch: WorldPatch })
        : { name: `valid #${i + 1}`, patch: entry };
    test(`${rule.code} ${name}`, () => {
      const found = ofRule(checkPatch(patch as WorldPatch, [rule]).diagnostics, rule);
      assert.deepEqual(found, [], `expected no ${rule.code}, got: ${found.map((d) => d.message).join("; ")}`);
    });
  });
  cases.invalid.forEach((entry, i) => {
    test(`${rule.code} ${entry.name ?? `invalid #${i + 1}`}`, () => {
      const found = ofRule(checkPatch(entry.patch, [rule]).diagnostics, rule);
      assert.deepEqual(
        found.map((d) => d.path),
        entry.errors.map((e) => e.path),
        `paths of ${rule.code}: ${found.map((d) => d.message).join("; ")}`,
      );
      found.forEach((diagnostic, j) => {
        const expected = entry.errors[j]!;
        assert.equal(diagnostic.severity, rule.severity);
        assert.notEqual(diagnostic.line, null, "a diagnostic must carry a line");
        if (expected.messageId) {
          const template = (rule.messages as Record<string, string>)[expected.messageId];
          assert.ok(template, `unknown messageId ${expected.messageId}`);
          if (expected.data) assert.equal(diagnostic.message, formatMessage(template, expected.data));
          else assert.match(diagnostic.message, templatePattern(template));
        }
      });
    });
  });
}

function ofRule(diagnostics: Diagnostic[], rule: Rule): Diagnostic[] {
  return diagnostics.filter((d) => d.code === rule.code || d.code === "internal/rule-failed");
}

function templatePattern(template: string): RegExp {
  const parts = template.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[\\s\\S]*")}$`);
}
