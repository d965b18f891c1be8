import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { z } from "zod";
import { formatValues } from "../../test/helpers/format-values.ts";
import {
  conditionPlan,
  effectSpec,
  effectTypeNames,
  isEffectType,
  isWellFormedEffect,
  mapPlans,
  plansFrom,
  sectionPlans,
} from "./check-plans.ts";
import { mapRoots, specOf, tableFrom } from "./check-table.ts";
import { checkSource } from "./check-table-data.ts";
import { CONDITION_SCHEMAS } from "./schema/conditions.ts";
import { EFFECT_SCHEMAS, isEffectType as isEffectTypeOfSchemas, parseEffect } from "./schema/effects.ts";
import { formatSchemas } from "./schema/lazy.ts";
import { MAP_SECTIONS, RECORD_SHAPES, recordSchema, SECTIONS } from "./schema/world.ts";
import { accepts, type Plan, planOf } from "./shape-plan.ts";

/*
 * The check table stands in for the zod schemas when a valid world is checked (the fast start's
 * script has it written in at build time): these tests fail when it says anything the schemas do not.
 */

const made = tableFrom(formatSchemas());

test("the table survives JSON, the form the build writes it in, and numbers what the sources read", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(made.table)), made.table);
  const { nodes, ...numbers } = made.table;
  assert.equal(nodes.length, made.plans.length);
  const source = checkSource();
  assert.ok(!("nodes" in source));
  assert.deepEqual(
    mapRoots(source, (schema) => made.plans.indexOf(planOf(schema))),
    numbers,
  );
});

/** The parts of a plan that decide what it accepts and which fields it knows, with children by number. */
function outline(plan: Plan, number: (plan: Plan) => number): unknown {
  switch (plan.kind) {
    case "values":
      return { kind: plan.kind, values: [...plan.values] };
    case "optional":
    case "nullable":
      return { kind: plan.kind, inner: number(plan.inner) };
    case "object":
      return {
        kind: plan.kind,
        loose: plan.loose,
        keys: plan.keys,
        fields: [...plan.fields].map(([key, field]) => [key, number(field)]),
        plans: plan.plans.map(number),
      };
    case "array":
      return { kind: plan.kind, element: number(plan.element) };
    case "record":
      return { kind: plan.kind, value: number(plan.value) };
    case "union":
      return { kind: plan.kind, options: plan.options.map(number), discriminator: plan.discriminator };
    default:
      return { kind: plan.kind };
  }
}

test("every plan read from the table is the plan zod's schemas make, down to the schema behind it", () => {
  const read = plansFrom(made.table, (id) => (made.plans[id] as { schema: z.ZodType }).schema);
  assert.equal(read.length, made.plans.length);
  const numberIn = (plans: Plan[]) => (plan: Plan) => plans.indexOf(plan);
  read.forEach((plan, id) => {
    const zodPlan = made.plans[id]!;
    assert.deepEqual(outline(plan, numberIn(read)), outline(zodPlan, numberIn(made.plans)), `node ${id}`);
    if ("schema" in zodPlan) assert.equal((plan as { schema: unknown }).schema, zodPlan.schema, `node ${id}`);
  });
});

test("the sections, records, conditions and effect values point at the plans of their schemas", () => {
  const zodAt = (schema: z.ZodType) => made.plans.indexOf(planOf(schema));
  assert.deepEqual(
    sectionPlans().map(([name]) => name),
    Object.keys(SECTIONS),
  );
  for (const [name, id] of made.table.sections) assert.equal(id, zodAt(SECTIONS[name] as z.ZodType), name);
  for (const name of MAP_SECTIONS) {
    const [, , lenient] = made.table.maps.find(([map]) => map === name)!;
    assert.equal(lenient === null, RECORD_SHAPES[name] === undefined, name);
    if (lenient !== null) assert.equal(lenient, zodAt(recordSchema(name)!), name);
  }
  for (const [type, schema] of Object.entries(CONDITION_SCHEMAS)) {
    assert.equal(made.table.conditions.find(([t]) => t === type)?.[1], zodAt(schema), type);
    assert.equal(conditionPlan(type as keyof typeof CONDITION_SCHEMAS), planOf(schema), type);
  }
  // In the sources, the module's plans are the schemas' own (the table is made in the process).
  for (const [name, plan] of sectionPlans()) assert.equal(plan, planOf(SECTIONS[name] as z.ZodType), name);
  for (const name of MAP_SECTIONS)
    assert.equal(
      mapPlans(name)?.lenient,
      RECORD_SHAPES[name] ? planOf(recordSchema(name)!) : undefined,
      name,
    );
  assert.deepEqual(effectTypeNames(), Object.keys(EFFECT_SCHEMAS));
  for (const type of effectTypeNames()) {
    const zodSpec = specOf(EFFECT_SCHEMAS[type]);
    const spec = effectSpec(type);
    assert.deepEqual(spec.operators, zodSpec.operators, type);
    assert.deepEqual(spec.fields, zodSpec.fields, type);
    for (const operator of [...spec.operators, "bogus"]) {
      assert.equal(spec.valueFor(operator), zodSpec.values.get(operator), `${type} ${operator}`);
      const plan = spec.valuePlan(operator);
      const schema = zodSpec.values.get(operator);
      assert.equal(plan === undefined, schema === undefined, `${type} ${operator}`);
      if (plan && schema)
        for (const candidate of [undefined, null, "x", 1, true, ["x", 2, false], [{}], { a: 1 }])
          assert.equal(accepts(plan, candidate), schema.safeParse(candidate).success, `${type} ${operator}`);
    }
  }
});

/** Values near the format's own (test/helpers/format-values.ts). */
const { scalar, value } = formatValues(
  ["type", "operator", "value", "key", "entity", "questId", "text", "source", "name", "x"],
  ["equals", "story", "write-array", "known-entity", "toggle", "set", "add", "V33", 33],
);

test("the plans read back from the table accept exactly what the schemas accept", () => {
  // As the fast start's script reads them: from the table alone, with no schema behind them yet.
  const read = plansFrom(JSON.parse(JSON.stringify(made.table)), () => assert.fail("no schema is needed"));
  const { table } = made;
  const pairs: [string, Plan, z.ZodType][] = [
    ...table.sections.map(([name, id]): [string, Plan, z.ZodType] => [
      name,
      read[id]!,
      SECTIONS[name] as z.ZodType,
    ]),
    ...table.maps
      .filter(([, , lenient]) => lenient !== null)
      .map(([name, , lenient]): [string, Plan, z.ZodType] => [
        `${name} record`,
        read[lenient!]!,
        recordSchema(name)!,
      ]),
    ...table.conditions.map(([type, id]): [string, Plan, z.ZodType] => [
      type,
      read[id]!,
      CONDITION_SCHEMAS[type as keyof typeof CONDITION_SCHEMAS],
    ]),
    ...table.effects.flatMap(([type, spec]) =>
      spec.variants.map((id, i): [string, Plan, z.ZodType] => [
        `${type} ${i}`,
        read[id]!,
        EFFECT_SCHEMAS[type as keyof typeof EFFECT_SCHEMAS][i]!,
      ]),
    ),
  ];
  for (const [name, plan, schema] of pairs) {
    assert.equal(accepts(plan, undefined), schema.safeParse(undefined).success, name);
    fc.assert(
      fc.property(value, (candidate) => {
        assert.equal(accepts(plan, candidate), schema.safeParse(candidate).success, name);
      }),
      { numRuns: 100 },
    );
  }
});

test("isWellFormedEffect is parseEffect's ok, and isEffectType the schemas' own", () => {
  const valid = [
    { type: "write-array", key: "k", operator: "set", value: ["a", 1] },
    { type: "known-entity", entity: "Old Mill", operator: "toggle" },
    { type: "player-resource", resource: "health", operator: "add", value: 2, target: "allPlayers" },
    { type: "quest-next-step-set", questId: "q", text: "t", source: "objective" },
    { type: "story", instruction: "Rain." },
  ];
  fc.assert(
    fc.property(
      fc.constantFrom(...valid),
      fc.constantFrom("type", "operator", "value", "key", "entity", "source", "target"),
      fc.oneof(scalar, value),
      (base, key, replacement) => {
        const mutated = { ...base, [key]: replacement };
        assert.equal(isWellFormedEffect(mutated), parseEffect(mutated).ok);
      },
    ),
    { numRuns: 500 },
  );
  for (const effect of valid) assert.ok(isWellFormedEffect(effect));
  for (const type of [...effectTypeNames(), "bogus", "__proto__", "toString", 5, null])
    assert.equal(isEffectType(type), isEffectTypeOfSchemas(type), String(type));
});

test("a plan read from the table that says it refuses undefined is one the schema refuses it for", () => {
  // The shape walk trusts the flag to count required fields (shape.ts, visit): a wrong `true`
  // would pass a record missing a required field.
  const read = plansFrom(made.table, (id) => (made.plans[id] as { schema: z.ZodType }).schema);
  let said = 0;
  read.forEach((plan, id) => {
    const refuses = (plan as { refusesUndefined?: boolean }).refusesUndefined;
    if (refuses === undefined) return;
    said++;
    const schema = (made.plans[id] as { schema?: z.ZodType }).schema;
    assert.equal(refuses, !accepts(plan, undefined), `node ${id}`);
    if (schema) assert.equal(refuses, !schema.safeParse(undefined).success, `node ${id}`);
  });
  assert.ok(said > read.length / 2, `${said} of ${read.length} plans say`);
});
