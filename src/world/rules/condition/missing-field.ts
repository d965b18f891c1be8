import { defineRule } from "../../rule.ts";
import {
  CONDITION_TYPES,
  type ConditionSpec,
  isConditionType,
  type ValueKind,
} from "../../schema/condition-table.ts";
import { describeValue } from "../../values.ts";
import { rawConditions } from "../triggers.ts";

/** What each text field of a condition holds, for the message. */
const FIELD_HINTS: Record<string, string> = {
  resource: "the resource key from resourceSettings",
  entity: "the name of the entity",
  questId: "the quest's key in quests",
  eventId: "the narrative event's key in narrativeEvents",
  key: "the storage key",
  query: "what the AI should judge, in plain words",
  embeddingId: "assigned by the engine: omit it when authoring",
};

const VALUE_HINTS: Record<ValueKind, string> = {
  number: "the number to compare with",
  string: "the text to compare with",
  boolean: "true or false, without quotes",
  scalar: "the string, number or boolean to look for",
  questStatus: "the quest status to compare with",
  eventStatus: "the narrative event status to compare with",
  none: "",
};

export default defineRule({
  code: "condition/missing-field",
  severity: "error",
  description:
    "A condition lacks a field its type requires (`resource`, `entity`, `questId`, `eventId`, `key`, `query`, `operator`, `value`), or one of its type's text fields is not a string.",
  why: "Each condition type reads specific fields (docs/format.md, triggers). Without them the engine cannot evaluate the condition, so the trigger would never fire as intended. The shape check only knows that a condition has a `type`; this rule knows what each type needs.",
  messages: {
    missing: 'This "{type}" condition needs "{field}" ({hint}). Add it.',
    notString: 'Field "{field}" of this "{type}" condition is {actual}; write it as a string ({hint}).',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { conditions: [{ type: "player-resource", operator: "lessThan", value: 5 }] },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "player-resource", resource: "health", operator: "lessThan", value: 5 }],
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const type = condition.type;
      if (!isConditionType(type)) continue;
      const spec: ConditionSpec = CONDITION_TYPES[type];
      // Required fields, then optional ones, by index: no array spread together and no iterator
      // per condition (the interpreter runs the iterator protocol for both).
      const required = spec.fields.length;
      const optional = spec.optionalFields;
      for (let f = 0, count = required + (optional?.length ?? 0); f < count; f++) {
        const field = f < required ? spec.fields[f]! : optional![f - required]!;
        const value = condition[field];
        if (value === undefined ? !spec.fields.includes(field) : typeof value === "string") continue;
        report({
          path: [...path, field],
          messageId: value === undefined ? "missing" : "notString",
          data: { type, field, hint: FIELD_HINTS[field] ?? field, actual: describeValue(value) },
        });
      }
      const operator = condition.operator;
      if (spec.operators.length > 0 && typeof operator !== "string") {
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
      if (spec.value !== "none" && condition.value === undefined) {
        report({
          path: [...path, "value"],
          messageId: "missing",
          data: { type, field: "value", hint: VALUE_HINTS[spec.value] },
        });
      }
    }
  },
});
