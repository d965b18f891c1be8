import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unconditional-skip.ts";

const trigger = (source: string, recurring?: boolean) => ({
  triggers: { start_sheep: { script: source, recurring } },
});

testRule(rule, {
  valid: [
    trigger("if (check({type: 'game-tick'}) < 3) skip = true;"),
    trigger("try { skip = true; } catch (e) { log(e); }"),
    trigger("skip = true;\nif (storage.ready) skip = false;"),
    {
      name: "a recurring trigger may skip its effects on purpose",
      patch: trigger("storage.n = 1;\nskip = true;", true),
    },
  ],
  invalid: [
    {
      patch: trigger("storage.turns = (storage.turns ?? 0) + 1;\nskip = true;"),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "always",
          data: { trigger: '"start_sheep"', line: 2, column: 1 },
        },
      ],
    },
    {
      name: "recurring: false is not recurring",
      patch: trigger("{ skip = true; }", false),
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "always",
          data: { trigger: '"start_sheep"', line: 1, column: 3 },
        },
      ],
    },
  ],
});
