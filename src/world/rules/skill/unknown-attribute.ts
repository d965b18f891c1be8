import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { foldName, quoteList } from "../names.ts";

export default defineRule({
  code: "skill/unknown-attribute",
  severity: "warning",
  description: "A skill's `attribute` is not one of `attributeSettings.attributeNames`.",
  why: "A skill is governed by one attribute: the character's value of that attribute backs every use of the skill. A name that is not a defined attribute backs nothing, so the skill silently plays as if the character had no aptitude for it. Names match ignoring case and surrounding spaces, as attribute names do everywhere (docs/format.md, attributeSettings).",
  messages: {
    unknown:
      "Skill {skill} is governed by attribute {attribute}, which is not in attributeSettings.attributeNames.{suggestion} Use one of: {valid}; or add it to attributeSettings.attributeNames.",
  },
  examples: {
    bad: { skills: { climbing: { attribute: "strenght" } } },
    good: { skills: { climbing: { attribute: "Strength" } } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("attributeSettings")) return;
    const names = world.attributeSettings.attributeNames;
    const known = new Set(names.map(foldName));
    for (const [key, skill] of Object.entries(world.skills)) {
      if (known.has(foldName(skill.attribute))) continue;
      report({
        path: ["skills", key, "attribute"],
        messageId: "unknown",
        data: {
          skill: JSON.stringify(key),
          attribute: JSON.stringify(skill.attribute),
          suggestion: didYouMean(skill.attribute.trim(), names),
          valid: names.length > 0 ? quoteList(names, 12) : "(none: the list is empty)",
        },
      });
    }
  },
});
