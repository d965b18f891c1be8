import assert from "node:assert/strict";
import { test } from "node:test";
import { EFFECT_TYPE_NAMES, parseEffect } from "../schema/effects.ts";
import { describeSchema, effectSpec, isOptional } from "./effect-spec.ts";

/** An effect of `type` with every field the spec derives set to an accepted value. */
function build(type: string, operator: string | undefined, value: unknown) {
  const effect: Record<string, unknown> = { type };
  for (const field of effectSpec(type as never).fields) effect[field.name] = field.options?.[0] ?? "x";
  if (operator !== undefined) effect.operator = operator;
  if (value !== undefined) effect.value = value;
  return effect;
}

const VALUES = [undefined, "x", 1, true, ["x", 2, false]];

test("the derived spec agrees with parseEffect on every type and operator", () => {
  for (const type of EFFECT_TYPE_NAMES) {
    const spec = effectSpec(type);
    if (spec.operators.length === 0) {
      assert.ok(parseEffect(build(type, undefined, undefined)).ok, `${type} needs only its fields`);
      continue;
    }
    for (const operator of spec.operators) {
      const schema = spec.valueFor(operator);
      assert.ok(schema, `${type} ${operator} has a value schema`);
      for (const value of VALUES) {
        const accepted: boolean = value === undefined ? isOptional(schema) : schema.safeParse(value).success;
        assert.equal(parseEffect(build(type, operator, value)).ok, accepted, `${type} ${operator} ${value}`);
      }
    }
    for (const value of VALUES) assert.equal(parseEffect(build(type, "bogus", value)).ok, false);
    assert.equal(spec.valueFor("bogus"), undefined);
  }
});

test("a field missing from the derived required fields is what parseEffect rejects", () => {
  for (const type of EFFECT_TYPE_NAMES) {
    const spec = effectSpec(type);
    const operator = spec.operators[0];
    const value =
      operator === undefined ? undefined : VALUES.find((v) => spec.valueFor(operator)!.safeParse(v).success);
    for (const field of spec.fields) {
      const { [field.name]: _dropped, ...rest } = build(type, operator, value);
      assert.equal(parseEffect(rest).ok, !field.required, `${type} without ${field.name}`);
    }
  }
});

test("describeSchema words what the effect schemas take", () => {
  const words = (type: string, operator: string) =>
    describeSchema(effectSpec(type as never).valueFor(operator)!);
  assert.equal(words("write-number", "add"), "a number");
  assert.equal(words("write-array", "set"), "an array of strings, numbers or booleans");
  assert.equal(words("write-array", "add"), "a string, number or boolean");
  assert.equal(
    words("player-traits", "set"),
    "a string, number or boolean, or an array of strings, numbers or booleans",
  );
  assert.equal(words("known-entity", "toggle"), "a boolean");
});
