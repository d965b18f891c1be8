import { defineRule } from "../../rule.ts";
import { rawConditions } from "../triggers.ts";

export const MAX_CONDITION_VALUE = 100;

const text = (length: number) => ({
  triggers: {
    start_sheep: { conditions: [{ type: "story-text", operator: "contains", value: "b".repeat(length) }] },
  },
});

export default defineRule({
  code: "limit/condition-value",
  severity: "error",
  description: `A condition's string \`value\` is longer than ${MAX_CONDITION_VALUE} characters.`,
  why: `The engine caps a condition's \`value\` at ${MAX_CONDITION_VALUE} raw characters, at publish time and again at run time (docs/rules.md, limit/). Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2. A long value usually means a whole sentence where a short distinctive phrase would match more reliably.`,
  messages: {
    length: `The value of this "{type}" condition is {length} characters; the limit is ${MAX_CONDITION_VALUE}. Shorten it: match a short distinctive phrase with "contains" or "regex".`,
  },
  examples: { bad: text(MAX_CONDITION_VALUE + 1), good: text(MAX_CONDITION_VALUE) },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const { type, value } = condition;
      if (typeof value !== "string" || value.length <= MAX_CONDITION_VALUE) continue;
      report({
        path: [...path, "value"],
        messageId: "length",
        data: { type: String(type), length: value.length },
      });
    }
  },
});
