import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "trait/unknown-skill",
  severity: "error",
  description: "A trait's `skills[].skill` is not a key of `skills`.",
  why: "A trait's skill modifier creates the skill at level 1 on a character who lacks it (docs/format.md, traits). For a name that is not a defined skill, that is a skill with no governing attribute, type or description; almost always a typo or a renamed skill. It is a warning because the engine still applies it.",
  messages: {
    unknown:
      'Skill "{skill}" of trait "{trait}" is not a key of skills, so characters get an undefined skill of that name.{suggestion} Use a skill key exactly as written, or define the skill.',
  },
  examples: {
    bad: { traits: { Brave: { skills: [{ skill: "Climbing", modifier: 1 }] } } },
    good: { traits: { Brave: { skills: [{ skill: "climbing", modifier: 1 }] } } },
  },
  check({ world, raw, report }) {
    // Compare with every skill key as written, so a skill with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "skills");
    if (!known) return;
    for (const [key, trait] of Object.entries(world.traits)) {
      trait.skills.forEach(({ skill }, i) => {
        if (skill.trim() === "" || known.has(skill)) return;
        report({
          path: ["traits", key, "skills", i, "skill"],
          messageId: "unknown",
          data: { skill, trait: key, suggestion: didYouMean(skill, known) },
        });
      });
    }
  },
});
