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
  assert.deepEqual(printed.properties.$schema, { type: "string" });
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
