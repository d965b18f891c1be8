import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { check } from "../../src/cli/check.ts";
import { artifactUri } from "../../src/cli/format/sarif.ts";
import { TOOL } from "../../src/cli/tool.ts";
import { CATALOGUE } from "../../src/world/catalogue.ts";
import { BASE_WORLD, captureIo, FIXTURES, ROOT } from "./helpers.ts";

process.chdir(ROOT);

async function sarifOf(file: string) {
  const { io, stdout } = captureIo();
  const code = await check(file, { format: "sarif" }, io);
  return { code, log: JSON.parse(stdout()) };
}

test("sarif: a SARIF 2.1.0 log whose rule table is the catalogue", async () => {
  const { code, log } = await sarifOf("test/cli/fixtures/broken.world.json");
  assert.equal(code, 1);
  assert.equal(log.version, "2.1.0");
  assert.equal(log.$schema, "https://json.schemastore.org/sarif-2.1.0.json");
  assert.equal(log.runs.length, 1);
  const driver = log.runs[0].tool.driver;
  assert.deepEqual([driver.name, driver.version], [TOOL.name, TOOL.version]);
  assert.deepEqual(
    driver.rules.map((r: { id: string }) => r.id),
    CATALOGUE.map((info) => info.code),
  );
  for (const rule of driver.rules) {
    assert.ok(rule.shortDescription.text.length > 0, rule.id);
    assert.ok(rule.help.text.length > 0, rule.id);
    assert.ok(["error", "warning"].includes(rule.defaultConfiguration.level), rule.id);
  }
});

test("sarif: each result names its rule, level, message, position and JSON path", async () => {
  const { log } = await sarifOf("test/cli/fixtures/broken.world.json");
  const run = log.runs[0];
  assert.deepEqual(run.artifacts, [{ location: { uri: "test/cli/fixtures/broken.world.json" } }]);
  assert.deepEqual(
    run.results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level]),
    [
      ["keys/name-mismatch", "error"],
      ["shape/wrong-type", "error"],
      ["shape/unknown-field", "warning"],
    ],
  );
  for (const result of run.results) {
    assert.equal(run.tool.driver.rules[result.ruleIndex].id, result.ruleId);
    assert.ok(result.message.text.length > 0);
    const { artifactLocation, region } = result.locations[0].physicalLocation;
    assert.equal(artifactLocation.uri, "test/cli/fixtures/broken.world.json");
    assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
    assert.ok(Number.isInteger(region.startColumn) && region.startColumn >= 1);
  }
  const [mismatch, wrongType] = run.results;
  assert.deepEqual(mismatch.locations[0].physicalLocation.region, { startLine: 80, startColumn: 15 });
  assert.deepEqual(mismatch.properties, { jsonPath: "items.Rope.name" });
  assert.deepEqual(mismatch.relatedLocations, [
    {
      id: 1,
      physicalLocation: {
        artifactLocation: { uri: "test/cli/fixtures/broken.world.json" },
        region: { startLine: 79, startColumn: 13 },
      },
      message: { text: "the key is here" },
    },
  ]);
  assert.deepEqual(wrongType.properties, { jsonPath: 'locations["Old Mill"].radius' });
  assert.equal("relatedLocations" in wrongType, false);
});

test("sarif: a clean world has no results; warnings alone keep exit 0", async () => {
  const clean = await sarifOf(BASE_WORLD);
  assert.deepEqual([clean.code, clean.log.runs[0].results], [0, []]);
  const warned = await sarifOf(join(FIXTURES, "warnings.world.json"));
  assert.deepEqual(
    [warned.code, warned.log.runs[0].results.map((r: { level: string }) => r.level)],
    [0, ["warning"]],
  );
});

test("sarif: artifact URIs are relative URIs or file URLs", () => {
  assert.equal(artifactUri("worlds/my world#1.json"), "worlds/my%20world%231.json");
  assert.equal(artifactUri("/srv/worlds/a b.json"), "file:///srv/worlds/a%20b.json");
});
