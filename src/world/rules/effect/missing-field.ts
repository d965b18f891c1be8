import { isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import { accepts, type Plan } from "../../shape-plan.ts";
import { describeValue } from "../../values.ts";
import { describeSchema, effectSpec } from "../effect-spec.ts";
import { rawEffects } from "../triggers.ts";

/** What each text field of an effect holds, for the message. */
const FIELD_HINTS: Record<string, string> = {
  instruction: "the one-time instruction for the narrator",
  questId: "the quest's key in quests",
  objectiveId: "the objective's id in the quest's objectives",
  text: "the next-step hint shown to the party",
  eventId: "the narrative event's key in narrativeEvents",
  resource: "the resource key from resourceSettings",
  entity: "the name of the entity",
  key: "the storage key",
};

export default defineRule({
  code: "effect/missing-field",
  severity: "error",
  description:
    "An effect lacks a field its type requires (`questId`, `text`, `key`, `operator`, `value`, …), or one of its type's text fields is not a string.",
  why: "The engine silently drops malformed effects at run time (docs/format.md, triggers): an effect missing a field its type needs would simply not happen. At publish time it is an error. Which fields each type needs comes from the effect schemas, the same ones the engine applies.",
  messages: {
    missing:
      'This "{type}" effect needs "{field}" ({hint}); without it the effect would be dropped at run time. Add it.',
    notString:
      'Field "{field}" of this "{type}" effect is {actual}, so the effect would be dropped at run time. Write it as a string ({hint}).',
  },
  examples: {
    bad: { triggers: { start_sheep: { effects: [{ type: "quest-complete" }] } } },
    good: { triggers: { start_sheep: { effects: [{ type: "quest-complete", questId: "Lost Sheep" }] } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      const type = effect.type;
      if (!isEffectType(type)) continue;
      const spec = effectSpec(type);
      // By index: for...of runs the iterator protocol in the interpreter, once per effect.
      for (let f = 0; f < spec.fields.length; f++) {
        const { name, required, options } = spec.fields[f]!;
        const value = effect[name];
        if (value === undefined ? !required : typeof value === "string") continue;
        const hint = options
          ? `one of ${options.map((o) => JSON.stringify(o)).join(", ")}`
          : FIELD_HINTS[name];
        report({
          path: [...path, name],
          messageId: value === undefined ? "missing" : "notString",
          data: { type, field: name, hint: hint ?? name, actual: describeValue(value) },
        });
      }
      if (spec.operators.length === 0) continue;
      const operator = effect.operator;
      if (typeof operator !== "string") {
        report({
          path: [...path, "operator"],
          messageId: operator === undefined ? "missing" : "notString",
          data: {
            type,
            field: "operator",
            hint: `one of: ${spec.operators.join(", ")}`,
            actual: describeValue(operator),
          },
        });
      }
      if (effect.value !== undefined) continue;
      // The operator decides whether a value is needed; without a usable operator, only if every operator needs one.
      // Plans answer whether a value is needed; the schemas (built then) word what it takes.
      const chosen = typeof operator === "string" && spec.valuePlan(operator) ? operator : undefined;
      const candidates = chosen !== undefined ? [chosen] : spec.operators;
      if (candidates.some((op) => valueOptional(spec.valuePlan(op)))) continue;
      const hints = [...new Set(candidates.map((op) => describeSchema(spec.valueFor(op)!)))];
      report({
        path: [...path, "value"],
        messageId: "missing",
        data: { type, field: "value", hint: hints.join("; or ") },
      });
    }
  },
});

/** Whether an effect may leave out its value: no value schema, or one that takes undefined. */
function valueOptional(plan: Plan | undefined): boolean {
  return !plan || accepts(plan, undefined);
}
