import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { schema } from "../../src/cli/schema.ts";
import { SECTIONS } from "../../src/world/schema/world.ts";
import { checkValue } from "../helpers/world.ts";
import { assertOneLine, BASE_WORLD, captureIo, scratchDir } from "./helpers.ts";

const scratch = scratchDir();

async function printedSchema() {
  const { io, stdout, stderr } = captureIo();
  assert.equal(await schema({}, io), 0);
  assert.equal(stderr(), "");
  return JSON.parse(stdout());
}

test("schema: a draft 2020-12 JSON Schema of every section, $schema included", async () => {
  const printed = await printedSchema();
  assert.equal(printed.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(printed.type, "object");
  assert.deepEqual(Object.keys(printed.properties).sort(), Object.keys(SECTIONS).sort());
  assert.equal(printed.properties.$schema.type, "string");
  assert.equal(printed.required.includes("$schema"), false);
});

test("schema: the base world has every required section and no section the schema lacks", async () => {
  const printed = await printedSchema();
  const world = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
  for (const section of printed.required) assert.ok(section in world, `base world lacks ${section}`);
  for (const section of Object.keys(world))
    assert.ok(section in printed.properties, `schema lacks ${section}`);
});

test('schema: a world that names its schema with "$schema" checks clean', () => {
  const world = { $schema: "./world.schema.json", ...JSON.parse(readFileSync(BASE_WORLD, "utf8")) };
  assert.deepEqual(checkValue(world).diagnostics, []);
});

test("schema --output writes the file and says where", async () => {
  const target = join(scratch.dir, "world.schema.json");
  const { io, stdout } = captureIo();
  assert.equal(await schema({ output: target }, io), 0);
  assert.equal(stdout(), `Wrote the world JSON Schema to ${target}\n`);
  assert.deepEqual(JSON.parse(readFileSync(target, "utf8")), await printedSchema());
});

test("schema --output into a missing folder exits 2 with one line", async () => {
  const { io, stdout, stderr } = captureIo();
  assert.equal(await schema({ output: join(scratch.dir, "no/such/dir/world.schema.json") }, io), 2);
  assert.equal(stdout(), "");
  assertOneLine(stderr());
  assert.match(stderr(), /cannot write .*: ENOENT.*Check that its folder exists/);
});

test("schema allows what check allows: unknown fields are allowed and marked, compat fields optional", async () => {
  const printed = await printedSchema();
  const text = JSON.stringify(printed);
  assert.doesNotMatch(text, /"additionalProperties":false/, "no object rejects unknown fields");
  const location = printed.properties.locations.additionalProperties;
  assert.equal(location.additionalProperties.deprecated, true);
  assert.match(location.additionalProperties.deprecationMessage, /shape\/unknown-field/);
  // check warns about an unknown field and still passes the world.
  const world = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
  world.locations["Old Mill"].complexity = "simple";
  const checked = checkValue(world);
  assert.equal(checked.errorCount, 0);
  assert.deepEqual(
    checked.diagnostics.map((d) => d.code),
    ["shape/unknown-field"],
  );
  // What check fills in for older exports is optional in the schema too.
  assert.equal(printed.required.includes("gameModes"), false);
  assert.equal(printed.properties.skillSettings.required.includes("newSkillGenerationEnabled"), false);
  const trait = printed.properties.traits.additionalProperties;
  assert.equal(trait.required.includes("traitNarrativeEffects"), false);
  assert.deepEqual(trait.anyOf, [{ required: ["traitNarrativeEffects"] }, { required: ["quirk"] }]);
});

test("schema: every field says what it means", async () => {
  const printed = await printedSchema();
  assert.match(
    printed.properties.skillSettings.properties.baseChanceToLearnNewSkill.description,
    /from 0 to 1/,
  );
  assert.match(printed.properties.locationSettings.properties.regionSize.description, /map units/);
});
