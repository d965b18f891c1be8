import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

// The list and the search live beside the script analysis, so that a script is parsed once for every rule.
export { ABSENT_GLOBALS, absentGlobals } from "../../script/globals.ts";

export default defineRule({
  code: "script/unknown-global",
  severity: "warning",
  description:
    "A trigger's `script` uses a global the sandbox does not have (`require`, `process`, `fetch`, `setTimeout`, `import()`…).",
  why: "Scripts run in an isolated sandbox with only `check`, `storage`, `effects`, `skip`, `triggers`, `info`, `log` and `console` (docs/scripts.md). A script that reaches for `require`, `process`, a timer or the network throws a ReferenceError when that line runs: the script is logged as `trigger-script-error`, its storage and trigger edits are discarded, and only its typed effects apply. Names the script declares itself are not reported, nor `typeof x` tests.",
  messages: {
    absent:
      "Script of trigger {trigger} uses {name} at line {line}, column {column} of the script, which the sandbox does not have, so it throws when it runs. Remove it: scripts can use check, storage, effects, skip, triggers, info, log and console (docs/scripts.md).",
  },
  examples: {
    bad: { triggers: { start_sheep: { script: "setTimeout(() => { storage.late = true; }, 10);" } } },
    good: { triggers: { start_sheep: { script: "storage.late = true;" } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
      const inspected = inspectScript(trigger.script);
      // A script that does not parse has its own error (script/syntax-error).
      if (!inspected.ok) continue;
      for (const use of inspected.analysis.absentGlobals) {
        report({
          path: ["triggers", key, "script"],
          messageId: "absent",
          data: { trigger: JSON.stringify(key), name: use.name, line: use.at.line, column: use.at.column },
        });
      }
    }
  },
});
