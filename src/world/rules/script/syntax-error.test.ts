import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./syntax-error.ts";

const script = (trigger: string, source: unknown) => ({ triggers: { [trigger]: { script: source } } });

testRule(rule, {
  valid: [
    {},
    script("start_sheep", ""),
    script("start_sheep", "if (storage.seen) skip = true;\nelse storage.seen = true;"),
    {
      name: "a top-level return is left to script/top-level-return",
      patch: script("start_sheep", "return;"),
    },
    { name: "a non-string script is a shape error, not this one", patch: script("start_sheep", 5) },
  ],
  invalid: [
    {
      name: "missing parenthesis, on the second line",
      patch: script("start_sheep", 'storage.n = 1;\nif (storage.n > 2 { log("x"); }'),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "syntax",
          data: { trigger: '"start_sheep"', error: "Unexpected token", line: 2, column: 19 },
        },
      ],
    },
    {
      name: "unterminated string, in a trigger whose shape is otherwise broken",
      patch: { triggers: { start_sheep: { effects: "none", script: 'log("open' } } },
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "syntax",
          data: { trigger: '"start_sheep"', error: "Unterminated string constant", line: 1, column: 5 },
        },
      ],
    },
    {
      name: "each broken script is reported",
      patch: {
        triggers: {
          start_sheep: { script: "const = 1;" },
          other: { name: "other", conditions: [], effects: [], script: "storage.x = ;" },
        },
      },
      errors: [
        { path: ["triggers", "start_sheep", "script"], messageId: "syntax" },
        { path: ["triggers", "other", "script"], messageId: "syntax" },
      ],
    },
  ],
});
