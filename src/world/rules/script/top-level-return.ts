import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export default defineRule({
  code: "script/top-level-return",
  severity: "error",
  description: "A trigger's `script` has a `return` outside any function.",
  why: "Scripts are statements, not a function body (docs/engine.md), so a top-level `return` is a syntax error: the script never runs, is logged as `trigger-script-error` at run time, and the trigger's typed effects apply as if there were no script. Authors used to function-body snippets write `return` to stop early; `skip = true` or an if/else does what they mean.",
  messages: {
    topLevelReturn:
      "Script of trigger {trigger} has a top-level return at line {line}, column {column} of the script. Scripts are statements, not a function body: remove the top-level return (use `skip = true` or an if/else). As written it is a syntax error, so the script would never run.",
  },
  examples: {
    bad: { triggers: { start_sheep: { script: "if (storage.seen) return;\nstorage.seen = true;" } } },
    good: {
      triggers: { start_sheep: { script: "if (storage.seen) skip = true;\nelse storage.seen = true;" } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
      const parsed = inspectScript(trigger.script);
      if (parsed.ok || parsed.error.kind !== "top-level-return") continue;
      report({
        path: ["triggers", key, "script"],
        messageId: "topLevelReturn",
        data: { trigger: JSON.stringify(key), line: parsed.error.line, column: parsed.error.column },
      });
    }
  },
});
