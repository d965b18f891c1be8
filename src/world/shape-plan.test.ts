import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { z } from "zod";
import { formatValues } from "../../test/helpers/format-values.ts";
import { CONDITION_SCHEMAS } from "./schema/conditions.ts";
import { Effect } from "./schema/effects.ts";
import { MAP_SECTIONS, recordSchema, SECTIONS } from "./schema/world.ts";
import { schemaAccepts } from "./shape-plan.ts";

/** Values near the format's own (test/helpers/format-values.ts). */
const { scalar, value } = formatValues(
  ["type", "operator", "value", "name", "query", "key", "index", "x", "y", "extra"],
  ["equals", "story", "write-array", "known-entity", "V33", 33, "party", "set", "push"],
);

const schemas: [string, z.ZodType][] = [
  ...Object.entries(SECTIONS).map(([name, schema]) => [name, schema as z.ZodType] as [string, z.ZodType]),
  ...MAP_SECTIONS.map((name) => [`${name} record`, recordSchema(name)!] as [string, z.ZodType]),
  ...Object.entries(CONDITION_SCHEMAS).map(
    ([type, schema]) => [type, schema as z.ZodType] as [string, z.ZodType],
  ),
  ["Effect", Effect],
];

test("a plan accepts exactly what zod accepts", () => {
  for (const [name, schema] of schemas) {
    fc.assert(
      fc.property(value, (candidate) => {
        assert.equal(schemaAccepts(schema, candidate), schema.safeParse(candidate).success, name);
      }),
      { numRuns: 200 },
    );
  }
});

test("a plan accepts exactly what zod accepts, on mutations of valid conditions and effects", () => {
  const valid = [
    { type: "game-tick", operator: "greaterThan", value: 0 },
    { type: "known-entity", operator: "equals", value: true, entity: "Old Mill" },
    { type: "write-array", key: "k", operator: "push", value: ["a", 1] },
    { type: "story", instruction: "Rain." },
  ];
  fc.assert(
    fc.property(
      fc.constantFrom(...valid),
      fc.constantFrom("type", "operator", "value", "key", "entity"),
      scalar,
      (base, key, replacement) => {
        const mutated = { ...base, [key]: replacement };
        for (const [name, schema] of schemas)
          assert.equal(schemaAccepts(schema, mutated), schema.safeParse(mutated).success, name);
      },
    ),
    { numRuns: 300 },
  );
});
