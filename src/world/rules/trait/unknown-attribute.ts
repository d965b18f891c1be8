import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { foldName } from "../names.ts";

export default defineRule({
  code: "trait/unknown-attribute",
  severity: "warning",
  description:
    "A trait's `attributes[].attribute` is not in `attributeSettings.attributeNames` (docs/format.md, traits).",
  why: "A trait's attribute modifier applies only to a defined attribute, matched ignoring case and surrounding spaces (docs/engine.md). Any other name has no effect, so the trait silently does less than its description promises.",
  messages: {
    unknown:
      'Attribute "{attribute}" of trait "{trait}" is not in attributeSettings.attributeNames, so this modifier has no effect.{suggestion} Use a defined attribute name, or add it to attributeSettings.attributeNames.',
  },
  examples: {
    bad: { traits: { Brave: { attributes: [{ attribute: "courage", modifier: 1 }] } } },
    good: { traits: { Brave: { attributes: [{ attribute: " Strength", modifier: 1 }] } } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("attributeSettings")) return;
    const names = world.attributeSettings.attributeNames;
    const known = new Set(names.map(foldName));
    for (const [key, trait] of Object.entries(world.traits)) {
      trait.attributes.forEach(({ attribute }, i) => {
        if (known.has(foldName(attribute))) return;
        report({
          path: ["traits", key, "attributes", i, "attribute"],
          messageId: "unknown",
          data: { attribute, trait: key, suggestion: didYouMean(attribute, names) },
        });
      });
    }
  },
});
