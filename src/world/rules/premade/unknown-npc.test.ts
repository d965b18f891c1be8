import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-npc.ts";

const character = (name: string, replacesNpc: unknown) => ({
  name,
  gender: "female",
  description: "An apprentice.",
  attributes: {},
  traits: [],
  replacesNpc,
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "a blank value: none", patch: { premadeCharacters: [character("Wren", "")] } },
    {
      name: "a non-string value is the shape step's",
      patch: { premadeCharacters: [character("Wren", true)] },
    },
  ],
  invalid: [
    {
      name: "example: a first name only",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["premadeCharacters", 0, "replacesNpc"],
          messageId: "unknown",
          data: { character: '"Wren"', npc: '"Ada"', suggestion: "" },
        },
      ],
    },
    {
      name: "by index; a case slip",
      patch: { premadeCharacters: [character("Wren", "Ada Reed"), character("Tam", "ada reed")] },
      errors: [
        {
          path: ["premadeCharacters", 1, "replacesNpc"],
          messageId: "unknown",
          data: { character: '"Tam"', npc: '"ada reed"', suggestion: ' Did you mean "Ada Reed"?' },
        },
      ],
    },
  ],
});
