import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { elementsOf, isPlainObject } from "../../values.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "premade/unknown-npc",
  severity: "error",
  description: "A premade character's `replacesNpc` is not a key of `npcs`.",
  why: "`replacesNpc` makes the premade character take the place of an authored NPC, so the NPC and the player's character are not both in the world. With a name that matches no NPC nothing is replaced, and the story may show the character twice. A blank value means none.",
  messages: {
    unknown:
      'Premade character {character} replaces NPC {npc}, which does not exist.{suggestion} Use a key of "npcs", or leave "replacesNpc" out.',
  },
  examples: {
    bad: {
      premadeCharacters: [
        {
          name: "Wren",
          gender: "female",
          description: "An apprentice.",
          attributes: {},
          traits: [],
          replacesNpc: "Ada",
        },
      ],
    },
    good: {
      premadeCharacters: [
        {
          name: "Wren",
          gender: "female",
          description: "An apprentice.",
          attributes: {},
          traits: [],
          replacesNpc: "Ada Reed",
        },
      ],
    },
  },
  check({ raw, report }) {
    const npcs = keysOf(raw, "npcs");
    if (!npcs) return;
    elementsOf(raw.premadeCharacters).forEach((character, index) => {
      if (!isPlainObject(character)) return;
      const npc = character.replacesNpc;
      if (typeof npc !== "string" || npc.trim() === "" || npcs.has(npc)) return;
      const who = typeof character.name === "string" ? JSON.stringify(character.name) : `#${index + 1}`;
      report({
        path: ["premadeCharacters", index, "replacesNpc"],
        messageId: "unknown",
        data: { character: who, npc: JSON.stringify(npc), suggestion: didYouMean(npc, npcs) },
      });
    });
  },
});
