import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { elementsOf, isPlainObject } from "../../values.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "premade/unknown-trait",
  severity: "warning",
  description: "A premade character's `traits` lists a name that is not a key of `traits`.",
  why: "A premade character starts with the listed traits and their modifiers, abilities and starting items, looked up by key. A name that matches no trait gives the character nothing for it. Premade characters are read as written, so one malformed character does not hide the others. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Premade character {character} has trait {trait}, which does not exist.{suggestion} Use a key of "traits", or remove the entry.',
  },
  examples: {
    bad: {
      premadeCharacters: [
        { name: "Wren", gender: "female", description: "An apprentice.", attributes: {}, traits: ["Bold"] },
      ],
    },
    good: {
      premadeCharacters: [
        { name: "Wren", gender: "female", description: "An apprentice.", attributes: {}, traits: ["Brave"] },
      ],
    },
  },
  check({ raw, report }) {
    const traits = keysOf(raw, "traits");
    if (!traits) return;
    elementsOf(raw.premadeCharacters).forEach((character, index) => {
      if (!isPlainObject(character)) return;
      const who = typeof character.name === "string" ? JSON.stringify(character.name) : `#${index + 1}`;
      elementsOf(character.traits).forEach((trait, i) => {
        if (typeof trait !== "string" || traits.has(trait)) return;
        report({
          path: ["premadeCharacters", index, "traits", i],
          messageId: "unknown",
          data: { character: who, trait: JSON.stringify(trait), suggestion: didYouMean(trait, traits) },
        });
      });
    });
  },
});
