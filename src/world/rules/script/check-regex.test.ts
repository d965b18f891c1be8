import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./check-regex.ts";

const script = (source: string) => ({ triggers: { start_sheep: { script: source } } });

testRule(rule, {
  valid: [
    script('if (!/sheep/.test(check({type: "story-text"}))) skip = true;'),
    script('if (!check({type: "party-area", operator: "equals", value: "Loft"})) skip = true;'),
    { name: "a script that does not parse is another rule's", patch: script('check({operator: "regex"}') },
  ],
  invalid: [
    {
      patch: script('if (!check({type: "party-area", operator: "regex", value: "^Loft"})) skip = true;'),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "regex",
          data: { trigger: '"start_sheep"', line: 1, column: 6, type: "party-area" },
        },
      ],
    },
    {
      name: "every call is reported; a call without a literal type suggests story-text",
      patch: script(
        'const t = "action-text";\nconst a = check({type: t, operator: "regex", value: "x"});\nconst b = check({type: "story-text", operator: "regex", value: "y"});',
      ),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "regex",
          data: { trigger: '"start_sheep"', line: 2, column: 11, type: "story-text" },
        },
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "regex",
          data: { trigger: '"start_sheep"', line: 3, column: 11, type: "story-text" },
        },
      ],
    },
  ],
});
