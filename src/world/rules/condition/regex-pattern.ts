import { checkPattern } from "../../pattern.ts";
import { defineRule } from "../../rule.ts";
import { rawConditions } from "../triggers.ts";

export default defineRule({
  code: "condition/regex-pattern",
  severity: "error",
  description:
    "A `regex` condition's pattern does not compile with RE2, the linear-time engine Taleforge matches patterns with.",
  why: "Patterns are matched by RE2 (the `re2js` package), whose time grows linearly with the text whatever the pattern, so no world can hang a game with a pattern such as `^(a+)+$`. The price is that constructs needing backtracking do not exist: lookahead `(?=` `(?!`, lookbehind `(?<=` `(?<!` and backreferences `\\1`. A pattern that does not compile never matches (the engine logs it once per session), so the trigger can never fire through this condition.",
  messages: {
    invalid:
      "The pattern {pattern} does not compile: {reason}. Fix the pattern (bare, or as /pattern/flags with flags i, m, s).",
    unsupported:
      "The pattern {pattern} uses lookaround or a backreference, which RE2 (the linear-time engine Taleforge matches with) does not support: {reason}. Rewrite it without them, e.g. with two conditions (all conditions must hold) or notContains for a negative lookahead.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { conditions: [{ type: "story-text", operator: "regex", value: "sheep(?! dog)" }] },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [
            { type: "story-text", operator: "regex", value: "/\\bsheep\\b/i" },
            { type: "story-text", operator: "notContains", value: "sheep dog" },
          ],
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      if (condition.operator !== "regex" || typeof condition.value !== "string") continue;
      const compiled = checkPattern(condition.value);
      if (compiled.ok) continue;
      report({
        path: [...path, "value"],
        messageId: compiled.unsupported ? "unsupported" : "invalid",
        data: { pattern: JSON.stringify(condition.value), reason: compiled.reason },
      });
    }
  },
});
