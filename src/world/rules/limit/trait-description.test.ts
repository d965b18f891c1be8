import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./trait-description.ts";

testRule(rule, {
  valid: [
    {},
    { name: "exactly 4000 characters", patch: { traits: { Brave: { description: "e".repeat(4000) } } } },
    {
      name: "traitNarrativeEffects may be longer",
      patch: { traits: { Brave: { traitNarrativeEffects: "e".repeat(9000) } } },
    },
  ],
  invalid: [
    {
      name: "4001 characters",
      patch: { traits: { Brave: { description: "e".repeat(4001) } } },
      errors: [
        {
          path: ["traits", "Brave", "description"],
          messageId: "length",
          data: { name: '"Brave"', length: 4001 },
        },
      ],
    },
    {
      name: "counted in UTF-16 code units",
      patch: { traits: { Brave: { description: "🦁".repeat(2001) } } },
      errors: [
        {
          path: ["traits", "Brave", "description"],
          messageId: "length",
          data: { name: '"Brave"', length: 4002 },
        },
      ],
    },
  ],
});
