import { defineRule } from "../../rule.ts";
import {
  CONDITION_TYPES,
  EVENT_STATUSES,
  isConditionType,
  QUEST_STATUSES,
  type ValueKind,
} from "../../schema/condition-table.ts";
import { didYouMean } from "../../suggest.ts";
import { describeValue } from "../../values.ts";
import { rawConditions } from "../triggers.ts";

const STATUSES: Partial<Record<ValueKind, readonly string[]>> = {
  questStatus: QUEST_STATUSES,
  eventStatus: EVENT_STATUSES,
};

const quoteAll = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

const EXPECTED: Record<ValueKind, string> = {
  number: "a number (without quotes)",
  string: "a string (in quotes)",
  boolean: "true or false (without quotes)",
  scalar: "a string, number or boolean",
  questStatus: `one of ${quoteAll(QUEST_STATUSES)}`,
  eventStatus: `one of ${quoteAll(EVENT_STATUSES)}`,
  none: "nothing",
};

function fits(kind: ValueKind, value: unknown): boolean {
  switch (kind) {
    case "number":
    case "string":
    case "boolean":
      return typeof value === kind;
    case "scalar":
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    case "questStatus":
    case "eventStatus":
      return typeof value === "string" && STATUSES[kind]!.includes(value);
    case "none":
      return true;
  }
}

/** The JSON literal a quoted value was meant to be (`"true"` -> `true`, `"5"` -> `5`), if any. */
function unquoted(kind: ValueKind, value: string): string | undefined {
  const text = value.trim();
  if (kind === "boolean" && (text.toLowerCase() === "true" || text.toLowerCase() === "false"))
    return text.toLowerCase();
  if (kind === "number" && text !== "" && Number.isFinite(Number(text))) return String(Number(text));
  return undefined;
}

export default defineRule({
  code: "condition/value-type",
  severity: "error",
  description: "A condition's `value` is not of the type its condition type compares with.",
  why: 'Each condition type compares with one kind of value (docs/format.md, triggers): numbers for ticks, levels, resources and `read-number`; JSON booleans for `known-entity` and `read-boolean` (the strings "true" and "false" are wrong); quest and narrative event statuses from fixed lists; a single string, number or boolean for `player-traits` and `read-array`. A value of another type never matches as intended.',
  messages: {
    wrongType: 'The value of this "{type}" condition is {actual}; write {expected}.',
    quoted:
      'The value is {actual}, but a condition of type "{type}" compares with a JSON {kind}: use the JSON {kind} {literal} without quotes.',
    status:
      'Status "{value}" is not a valid value for "{type}" conditions.{suggestion} Use one of {statuses}.',
    notElement:
      'This "{type}" condition looks for one element, but its value is an array. Write a single string, number or boolean, and use one condition per element.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "read-boolean", key: "gate_open", operator: "equals", value: "true" }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "read-boolean", key: "gate_open", operator: "equals", value: true }],
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const { type, value } = condition;
      // A missing value is condition/missing-field's to report.
      if (!isConditionType(type) || value === undefined) continue;
      const kind: ValueKind = CONDITION_TYPES[type].value;
      if (fits(kind, value)) continue;
      const at = [...path, "value"];
      const statuses = STATUSES[kind];
      const literal = typeof value === "string" ? unquoted(kind, value) : undefined;
      if (literal !== undefined) {
        report({
          path: at,
          messageId: "quoted",
          data: { type, kind, literal, actual: describeValue(value) },
        });
      } else if (statuses && typeof value === "string") {
        report({
          path: at,
          messageId: "status",
          data: { type, value, statuses: quoteAll(statuses), suggestion: didYouMean(value, statuses) },
        });
      } else if (kind === "scalar" && Array.isArray(value)) {
        report({ path: at, messageId: "notElement", data: { type } });
      } else {
        report({
          path: at,
          messageId: "wrongType",
          data: { type, expected: EXPECTED[kind], actual: describeValue(value) },
        });
      }
    }
  },
});
