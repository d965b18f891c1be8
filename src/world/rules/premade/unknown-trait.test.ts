import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-trait.ts";

const character = (name: unknown, traits: unknown[], extra: object = {}) => ({
  name,
  gender: "female",
  description: "An apprentice.",
  attributes: {},
  traits,
  ...extra,
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "no traits", patch: { premadeCharacters: [character("Wren", [])] } },
    {
      name: "non-string entries are the shape step's",
      patch: { premadeCharacters: [character("Wren", [3])] },
    },
  ],
  invalid: [
    {
      name: "example: a trait no one defined",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["premadeCharacters", 0, "traits", 0],
          messageId: "unknown",
          data: { character: '"Wren"', trait: '"Bold"', suggestion: "" },
        },
      ],
    },
    {
      name: "by index, also in a character whose other fields are malformed",
      patch: {
        premadeCharacters: [character("Wren", ["Brave"]), character(42, ["Brave", "brave"], { gender: 1 })],
      },
      errors: [
        {
          path: ["premadeCharacters", 1, "traits", 1],
          messageId: "unknown",
          data: { character: "#2", trait: '"brave"', suggestion: ' Did you mean "Brave"?' },
        },
      ],
    },
  ],
});
