import assert from "node:assert/strict";
import { test } from "node:test";
import { describeCoverage, scriptCoverage } from "./coverage.ts";

const world = (...scripts: string[]) => ({
  triggers: Object.fromEntries(
    scripts.map((script, i) => [`t${i}`, { name: `t${i}`, conditions: [], effects: [], script }]),
  ),
});

test("counts the scripts lint follows fully, and says why the others are not", () => {
  const coverage = scriptCoverage(
    world(
      "const guild = storage.factions.guild; guild.rank = 'silver';",
      "storage.factions = storage.factions || {}; const { gold = 0 } = storage; log(storage?.x?.y, gold);",
      "storage[key] = 1;",
      "for (const k of Object.keys(storage)) log(k);",
      "const e = { type: 'story', instruction: 'x' }; effects.push(e);",
      "if (",
    ),
  );
  assert.equal(coverage.total, 6);
  assert.equal(coverage.analysed, 2);
  assert.equal(
    describeCoverage(coverage),
    "lint: 2/6 scripts analysed; 1 use computed keys, 1 use storage as a value, 1 build effects or triggers at run time, 1 do not parse.",
  );
});

test("a world without triggers, or without scripts, says so", () => {
  assert.match(describeCoverage(scriptCoverage({})), /no triggers/);
  assert.equal(
    describeCoverage(scriptCoverage({ triggers: { a: { effects: [] } } })),
    "lint: 0 scripts (1 trigger, none with a script).",
  );
});
