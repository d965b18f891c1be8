import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-global.ts";

const script = (source: string) => ({ triggers: { start_sheep: { script: source } } });
const at = ["triggers", "start_sheep", "script"];

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "typeof tests are safe", patch: script('if (typeof require === "function") log("node");') },
    {
      name: "names the script declares, and properties that merely share a name",
      patch: script(
        [
          "const fetch = (k) => storage[k];",
          "function setTimeout(f) { f(); }",
          "try { log(fetch('a')); } catch (process) { log(process); }",
          "const o = { require: 1, process: 2 }; log(o.require + o.process);",
          "setTimeout(() => {});",
        ].join("\n"),
      ),
    },
    { name: "a script that does not parse is syntax-error's business", patch: script("require(") },
  ],
  invalid: [
    {
      name: "example: a timer",
      patch: rule.examples!.bad,
      errors: [
        {
          path: at,
          messageId: "absent",
          data: { trigger: '"start_sheep"', name: "setTimeout", line: 1, column: 1 },
        },
      ],
    },
    {
      name: "each absent global once, at its line and column in the script, in source order",
      patch: script(
        [
          "storage.n = 1;",
          "  const fs = require('fs');",
          "log(process.env.HOME, require('os'));",
          "fetch('http://example.com');",
          "import('fs');",
          "globalThis.setInterval(() => {}, 5);",
        ].join("\n"),
      ),
      errors: [
        { path: at, data: { name: "require", line: 2, column: 14 } },
        { path: at, data: { name: "process", line: 3, column: 5 } },
        { path: at, data: { name: "fetch", line: 4, column: 1 } },
        { path: at, data: { name: "import()", line: 5, column: 1 } },
        { path: at, data: { name: "globalThis.setInterval", line: 6, column: 1 } },
      ],
    },
  ],
});
