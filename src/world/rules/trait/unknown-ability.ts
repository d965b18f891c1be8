import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "trait/unknown-ability",
  severity: "error",
  description: "A name in a trait's `abilities` is not a key of `abilities`.",
  why: "A trait grants the abilities it lists directly, by key (docs/format.md, traits). A name that matches no ability grants nothing the engine can use: no description, bonus or cooldown. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Ability "{ability}" of trait "{trait}" is not a key of abilities.{suggestion} Use an ability key exactly as written, or define the ability.',
  },
  examples: {
    bad: { traits: { Brave: { abilities: ["Steady Hand"] } } },
    good: { traits: { Brave: { abilities: ["Steady Hands"] } } },
  },
  check({ world, raw, report }) {
    // Compare with every ability key as written, so an ability with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "abilities");
    if (!known) return;
    for (const [key, trait] of Object.entries(world.traits)) {
      trait.abilities.forEach((ability, i) => {
        if (ability.trim() === "" || known.has(ability)) return;
        report({
          path: ["traits", key, "abilities", i],
          messageId: "unknown",
          data: { ability, trait: key, suggestion: didYouMean(ability, known) },
        });
      });
    }
  },
});
