import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export default defineRule({
  code: "script/syntax-error",
  severity: "error",
  description: "A trigger's `script` is not valid JavaScript.",
  why: "A script that does not parse never runs: at run time it is skipped and logged as `trigger-script-error`, while the trigger's typed effects still apply (docs/scripts.md). The script is only parsed here, never run, with the same parser and options as the sandbox, so the line and column match the run-time log.",
  messages: {
    syntax:
      "Script of trigger {trigger} does not parse: {error} at line {line}, column {column} of the script. Fix the syntax; at run time the script would be skipped and logged as trigger-script-error while its typed effects still apply.",
  },
  examples: {
    bad: { triggers: { start_sheep: { script: "if (storage.seen { skip = true; }" } } },
    good: { triggers: { start_sheep: { script: "if (storage.seen) { skip = true; }" } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
      const parsed = inspectScript(trigger.script);
      // A top-level return has its own code and advice (script/top-level-return).
      if (parsed.ok || parsed.error.kind !== "syntax") continue;
      report({
        path: ["triggers", key, "script"],
        messageId: "syntax",
        data: {
          trigger: JSON.stringify(key),
          error: parsed.error.message,
          line: parsed.error.line,
          column: parsed.error.column,
        },
      });
    }
  },
});
