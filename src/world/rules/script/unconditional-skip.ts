import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export default defineRule({
  code: "script/unconditional-skip",
  severity: "warning",
  description: "A non-recurring trigger's `script` sets `skip = true` at top level, on every run.",
  why: "`skip = true` stops the effects and keeps the trigger from counting as fired (docs/engine.md, Trigger lifecycle). Set on every run, a non-recurring trigger never fires, never applies its effects and stays armed forever, re-running its script each turn its conditions pass. A skip inside an if, loop, function, try, `&&` or `?:`, or one a later assignment may undo, is not reported.",
  messages: {
    always:
      'Script of trigger {trigger} sets `skip = true` unconditionally at line {line}, column {column} of the script, so this non-recurring trigger never fires and stays armed forever. Put the skip under an if (skip only when the trigger should wait), or, if the script is only meant to keep storage up to date every turn, set "recurring": true.',
  },
  examples: {
    bad: { triggers: { start_sheep: { script: "storage.turns = (storage.turns ?? 0) + 1;\nskip = true;" } } },
    good: {
      triggers: {
        start_sheep: {
          script: "storage.turns = (storage.turns ?? 0) + 1;\nif (storage.turns < 3) skip = true;",
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string" || trigger.recurring === true)
        continue;
      const script = inspectScript(trigger.script);
      const at = script.ok ? script.analysis.unconditionalSkip : null;
      if (!at) continue;
      report({
        path: ["triggers", key, "script"],
        messageId: "always",
        data: { trigger: JSON.stringify(key), line: at.line, column: at.column },
      });
    }
  },
});
