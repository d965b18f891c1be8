import { defineRule } from "../../rule.ts";
import { rawConditions } from "../triggers.ts";

export const MAX_CONDITION_TEXT = 1000;

const query = (length: number) => ({
  triggers: { start_sheep: { conditions: [{ type: "story", query: "a".repeat(length) }] } },
});

export default defineRule({
  code: "limit/condition-text",
  severity: "error",
  description: `A condition's \`query\` is longer than ${MAX_CONDITION_TEXT} characters.`,
  why: `The engine caps condition text (the \`query\` of \`story\` and \`action\` conditions) at ${MAX_CONDITION_TEXT} raw characters, at publish time and again at run time (docs/rules.md, limit/). Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2, an accented letter 1 or 2 depending on how it was composed. A short, specific query is also judged more reliably.`,
  messages: {
    length: `The query of this "{type}" condition is {length} characters; the limit is ${MAX_CONDITION_TEXT}. Shorten it to the one situation the AI should recognise.`,
  },
  examples: { bad: query(MAX_CONDITION_TEXT + 1), good: query(MAX_CONDITION_TEXT) },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      const { type, query } = condition;
      if (typeof query !== "string" || query.length <= MAX_CONDITION_TEXT) continue;
      report({
        path: [...path, "query"],
        messageId: "length",
        data: { type: String(type), length: query.length },
      });
    }
  },
});
