import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";

const FIELDS = ["vulnerabilities", "resistances", "immunities"] as const;

export default defineRule({
  code: "trait/unknown-damage-type",
  severity: "warning",
  description:
    "A trait's `vulnerabilities`, `resistances` or `immunities` names a type not in `combatSettings.damageTypes`.",
  why: "A trait's damage profile is matched verbatim, case included, against the defined damage types (docs/format.md, traits). A value that is not a defined damage type has no effect, so the vulnerability, resistance or immunity silently never applies.",
  messages: {
    unknown:
      'Damage type "{type}" in {field} of trait "{trait}" is not in combatSettings.damageTypes (matched exactly, case included), so it has no effect.{suggestion} Use a defined damage type, or add it to combatSettings.damageTypes.',
  },
  examples: {
    bad: { traits: { Brave: { resistances: ["Cold"] } } },
    good: { traits: { Brave: { resistances: ["cold"] } } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("combatSettings")) return;
    const types = world.combatSettings.damageTypes;
    const known = new Set(types);
    for (const [key, trait] of Object.entries(world.traits)) {
      for (const field of FIELDS) {
        trait[field]?.forEach((type, i) => {
          if (known.has(type)) return;
          report({
            path: ["traits", key, field, i],
            messageId: "unknown",
            data: { type, field, trait: key, suggestion: didYouMean(type, types) },
          });
        });
      }
    }
  },
});
