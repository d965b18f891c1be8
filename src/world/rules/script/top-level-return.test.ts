import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./top-level-return.ts";

const script = (source: string) => ({ triggers: { start_sheep: { script: source } } });

testRule(rule, {
  valid: [
    script("if (storage.seen) skip = true;"),
    script("function pick(n) { return n > 2; }\nif (!pick(storage.n)) skip = true;"),
    script("const f = () => { return 1; };"),
    { name: "other syntax errors are script/syntax-error", patch: script("if (x { }") },
  ],
  invalid: [
    {
      patch: script("return;"),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "topLevelReturn",
          data: { trigger: '"start_sheep"', line: 1, column: 1 },
        },
      ],
    },
    {
      name: "an early return inside a top-level if",
      patch: script("storage.n = (storage.n ?? 0) + 1;\nif (storage.n < 3) {\n  return;\n}"),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "topLevelReturn",
          data: { trigger: '"start_sheep"', line: 3, column: 3 },
        },
      ],
    },
  ],
});
