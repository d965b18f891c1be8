import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { GROUPS, renderFormatDoc, slug } from "../scripts/format-doc.ts";
import { CONDITION_TYPE_NAMES } from "../src/world/schema/conditions.ts";
import { EFFECT_TYPE_NAMES } from "../src/world/schema/effects.ts";
import { SECTIONS } from "../src/world/schema/world.ts";
import { starterWorld } from "../src/world/starter.ts";

/** docs/format.md is generated from the schemas: complete, and current (npm run docs:check fails in CI otherwise). */
const harbor = JSON.parse(readFileSync(new URL("../examples/harbor.world.json", import.meta.url), "utf8"));
const rendered = renderFormatDoc([starterWorld(), harbor]);

test("every section of the format is in exactly one group of docs/format.md", () => {
  const grouped = GROUPS.flatMap((g) => g.sections);
  assert.deepEqual([...grouped].sort(), Object.keys(SECTIONS).sort());
  assert.equal(new Set(grouped).size, grouped.length);
});

test("docs/format.md has a heading per section and per condition and effect kind, and every field", () => {
  for (const section of Object.keys(SECTIONS)) assert.ok(rendered.includes(`### \`${section}\``), section);
  for (const type of [...CONDITION_TYPE_NAMES, ...EFFECT_TYPE_NAMES])
    assert.match(rendered, new RegExp(`^### .*\`${type}\``, "m"), type);
  for (const field of ["baseChanceToLearnNewSkill", "abilityBonus", "npcDailyHealingAmount", "rechargeRate"])
    assert.match(rendered, new RegExp(`^\\| \`${field}\` \\| number \\| yes \\| .{20,}`, "m"), field);
  assert.equal(slug("$schema"), "schema");
});

test("docs/format.md on disk is what the schemas generate", () => {
  const onDisk = readFileSync(new URL("../docs/format.md", import.meta.url), "utf8");
  assert.ok(onDisk === rendered, "docs/format.md is stale: run `npm run docs`");
});
