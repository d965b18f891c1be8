import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-ability.ts";

testRule(rule, {
  valid: [
    {},
    { name: "no abilities", patch: { traits: { Brave: { abilities: [] } } } },
    { name: '"" is "not set"', patch: { traits: { Brave: { abilities: [""] } } } },
    {
      name: "an ability with its own shape problem still exists",
      patch: { abilities: { Roar: { name: "Roar" } }, traits: { Brave: { abilities: ["Roar"] } } },
    },
  ],
  invalid: [
    {
      patch: { traits: { Brave: { abilities: ["Steady Hands", "steady hands", "Fly"] } } },
      errors: [
        {
          path: ["traits", "Brave", "abilities", 1],
          messageId: "unknown",
          data: { ability: "steady hands", trait: "Brave", suggestion: ' Did you mean "Steady Hands"?' },
        },
        {
          path: ["traits", "Brave", "abilities", 2],
          messageId: "unknown",
          data: { ability: "Fly", trait: "Brave", suggestion: "" },
        },
      ],
    },
  ],
});
