import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { z } from "zod";
import { worldJsonSchema } from "../json-schema.ts";
import { describe } from "./describe.ts";
import { SECTIONS } from "./world.ts";

/** Every schema node of the format carries its meaning: the editor schema and docs/format.md are generated from them. */

const descriptionOf = (schema: z.ZodType): string | undefined => z.globalRegistry.get(schema)?.description;

/** The described node behind wrappers: `.optional()` of a described schema counts as described. */
function described(schema: z.ZodType): boolean {
  let current: z.ZodType | undefined = schema;
  for (let i = 0; current && i < 5; i++) {
    if (descriptionOf(current)) return true;
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    current = ["optional", "nullable", "default"].includes(def.type) ? def.innerType : undefined;
  }
  return false;
}

function undescribed(schema: z.ZodType, path: string, out: string[], seen = new Set<z.ZodType>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
      undescribed(def.innerType as z.ZodType, path, out, seen);
      return;
    case "object":
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        if (!described(field)) out.push(`${path}.${key}`);
        undescribed(field, `${path}.${key}`, out, seen);
      }
      return;
    case "record":
      undescribed(def.valueType as z.ZodType, `${path}.<key>`, out, seen);
      return;
    case "array":
      undescribed(def.element as z.ZodType, `${path}[]`, out, seen);
      return;
    case "union":
      (def.options as z.ZodType[]).forEach((option, i) => {
        const inner = option._zod.def.type;
        if (inner === "object" && !described(option)) out.push(`${path}|${i}`);
        undescribed(option, `${path}|${i}`, out, seen);
      });
      return;
  }
}

test("every section, field and union branch of the format has a description", () => {
  const missing: string[] = [];
  for (const [name, schema] of Object.entries(SECTIONS) as [string, z.ZodType][]) {
    if (!described(schema)) missing.push(name);
    undescribed(schema, name, missing);
  }
  assert.deepEqual(missing, [], `fields without a description: ${missing.join(", ")}`);
});

test("every property of the editor schema carries its description", () => {
  const missing: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, `${path}[${i}]`);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const object = node as Record<string, unknown>;
    if (object.properties && typeof object.properties === "object")
      for (const [key, property] of Object.entries(
        object.properties as Record<string, Record<string, unknown>>,
      ))
        if (typeof property.description !== "string" || property.description.length < 10)
          missing.push(`${path}.${key}`);
    for (const [key, child] of Object.entries(object)) walk(child, `${path}/${key}`);
  };
  walk(worldJsonSchema(), "");
  assert.deepEqual(missing, []);
});

test("describe registers on a fresh schema, and gives a described one a copy of its own", () => {
  const fresh = z.string();
  const first = describe(fresh, "first");
  assert.equal(first, fresh);
  assert.equal(descriptionOf(first), "first");
  const second = describe(first, "second", ["x"]);
  assert.notEqual(second, first);
  assert.equal(descriptionOf(second), "second");
  assert.deepEqual(z.globalRegistry.get(second)?.examples, ["x"]);
  assert.equal(descriptionOf(first), "first");
});

test("every schema's JSON Schema is the one zod's copies of described schemas give", () => {
  const code = `import { schemaDump } from ${JSON.stringify(new URL("../../../test/helpers/schema-dump.ts", import.meta.url).href)};\nprocess.stdout.write(schemaDump());`;
  const run = (copies: boolean) =>
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      encoding: "utf8",
      env: { ...process.env, TALEFORGE_DESCRIBE_COPIES: copies ? "1" : "" },
      maxBuffer: 64 * 1024 * 1024,
    });
  const own = run(false);
  assert.ok(own.length > 100_000);
  assert.equal(own, run(true));
});
