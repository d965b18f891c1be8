import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export default defineRule({
  code: "script/check-regex",
  severity: "warning",
  description: 'A trigger\'s `script` calls `check()` with `operator: "regex"`.',
  why: "In scripts, `check()` with the `regex` operator returns undefined (docs/scripts.md), so a test on its result is never true and the branch it guards never runs. Only literal condition objects are seen; a condition built at run time is not.",
  messages: {
    regex:
      'Script of trigger {trigger} calls check() with operator "regex" at line {line}, column {column} of the script; that returns undefined (docs/scripts.md), so the test never passes. Call check() without an operator and test the raw value with a RegExp: `/x/.test(check({type: "{type}"}))`.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          script: 'if (!check({type: "story-text", operator: "regex", value: "sheep"})) skip = true;',
        },
      },
    },
    good: {
      triggers: { start_sheep: { script: 'if (!/sheep/.test(check({type: "story-text"}))) skip = true;' } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
      const script = inspectScript(trigger.script);
      if (!script.ok) continue;
      for (const call of script.analysis.regexChecks) {
        report({
          path: ["triggers", key, "script"],
          messageId: "regex",
          data: {
            trigger: JSON.stringify(key),
            line: call.at.line,
            column: call.at.column,
            type: call.conditionType ?? "story-text",
          },
        });
      }
    }
  },
});
