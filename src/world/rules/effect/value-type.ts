import type { z } from "zod";
import { isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import type { EffectType } from "../../schema/effects.ts";
import { accepts } from "../../shape-plan.ts";
import { describeValue } from "../../values.ts";
import { arrayIn, describeSchema, effectSpec } from "../effect-spec.ts";
import { rawEffects } from "../triggers.ts";

/** The JSON number or boolean a quoted value was meant to be (`"5"` -> 5, `"true"` -> true), if the schema takes it. */
function unquoted(schema: z.ZodType, value: string): string | undefined {
  const text = value.trim().toLowerCase();
  const candidate =
    text === "true" ? true : text === "false" ? false : text === "" ? undefined : Number(text);
  if (candidate === undefined || Number.isNaN(candidate)) return undefined;
  return schema.safeParse(candidate).success ? String(candidate) : undefined;
}

/** ` or use operator "add"/"remove" …`: the other operators of the type that take this value. */
function otherOperators(type: EffectType, value: unknown, purpose: string): string {
  const spec = effectSpec(type);
  const others = spec.operators.filter((op) => spec.valueFor(op)?.safeParse(value).success);
  return others.length ? `, or use operator ${others.map((o) => `"${o}"`).join("/")} to ${purpose}` : "";
}

export default defineRule({
  code: "effect/value-type",
  severity: "error",
  description: "An effect's `value` is not of the type its effect type and operator take.",
  why: "The value an effect takes depends on its type and operator (docs/format.md, triggers): numbers for resources and `write-number`, booleans for `known-entity set` and `write-boolean`, a whole array for `write-array set` but one element for `add`/`remove`. `toggle` ignores the value, but a value of the wrong type still makes the effect malformed. The engine silently drops malformed effects at run time, so at publish time they are errors.",
  messages: {
    wrongType:
      'The value of this "{type}" effect (operator "{operator}") is {actual}, so the effect would be dropped at run time. Write {expected}.',
    quoted:
      'The value is {actual}, but a "{type}" effect with operator "{operator}" takes {expected}, so the effect would be dropped at run time. Write {literal} without quotes.',
    toggle:
      'Operator "toggle" ignores the value, but {actual} makes this "{type}" effect malformed, so it would be dropped at run time. Remove the value.',
    notArray:
      'With operator "{operator}", a "{type}" effect takes the whole new array, not {actual}, so the effect would be dropped at run time. Write [{literal}]{alternative}.',
    notElement:
      'With operator "{operator}", a "{type}" effect takes one element, not an array, so the effect would be dropped at run time. Write one effect per element{alternative}.',
    element:
      'Element {index} of the value is {actual}, so this "{type}" effect would be dropped at run time. Each element must be {expected}.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          effects: [{ type: "write-array", key: "visited", operator: "set", value: "Old Mill" }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [{ type: "write-array", key: "visited", operator: "set", value: ["Old Mill"] }],
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      const { type, operator, value } = effect;
      // Unknown operators and missing values are reported by the other effect rules.
      if (!isEffectType(type) || typeof operator !== "string" || value === undefined) continue;
      const spec = effectSpec(type);
      // The plan answers for a valid value; the schema (built then) words what is wrong.
      const plan = spec.valuePlan(operator);
      if (!plan || accepts(plan, value)) continue;
      const schema = spec.valueFor(operator)!;
      const at = [...path, "value"];
      const actual = describeValue(value);
      const expected = describeSchema(schema);
      const element = arrayIn(schema);
      if (operator === "toggle") {
        report({ path: at, messageId: "toggle", data: { type, actual } });
      } else if (Array.isArray(value) && element && value.some((item) => !element.safeParse(item).success)) {
        value.forEach((item, index) => {
          if (element.safeParse(item).success) return;
          report({
            path: [...at, index],
            messageId: "element",
            data: { type, index, actual: describeValue(item), expected: describeSchema(element) },
          });
        });
      } else if (Array.isArray(value) && !element) {
        const alternative = otherOperators(type, value, "replace the whole array");
        report({ path: at, messageId: "notElement", data: { type, operator, alternative } });
      } else if (element?.safeParse(value).success) {
        const alternative = otherOperators(type, value, "change one element");
        report({
          path: at,
          messageId: "notArray",
          data: { type, operator, actual, literal: JSON.stringify(value), alternative },
        });
      } else {
        const literal = typeof value === "string" ? unquoted(schema, value) : undefined;
        report({
          path: at,
          messageId: literal === undefined ? "wrongType" : "quoted",
          data: { type, operator, actual, expected, ...(literal === undefined ? {} : { literal }) },
        });
      }
    }
  },
});
