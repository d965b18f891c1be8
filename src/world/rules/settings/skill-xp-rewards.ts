import { defineRule } from "../../rule.ts";
import { isPlainObject, valueAt } from "../../values.ts";

const SIZES = ["small", "medium", "large", "huge"] as const;

export default defineRule({
  code: "settings/skill-xp-rewards",
  severity: "warning",
  description: "`skillSettings.skillXPRewards` lacks one of the reward sizes small, medium, large, huge.",
  why: "Skill XP is awarded by size name, and every real world defines these four sizes. A missing size leaves awards of that size without a value.",
  messages: {
    missing:
      "skillXPRewards has no {missing}. Skill XP is awarded by size (small, medium, large, huge): add a number for each missing size.",
  },
  examples: {
    bad: { skillSettings: { skillXPRewards: { large: undefined, huge: undefined } } },
    good: { skillSettings: { skillXPRewards: { epic: 160 } } },
  },
  check({ raw, report }) {
    const rewards = valueAt(raw, ["skillSettings", "skillXPRewards"]);
    if (!isPlainObject(rewards)) return;
    const missing = SIZES.filter((size) => !Object.hasOwn(rewards, size));
    if (missing.length === 0) return;
    report({
      path: ["skillSettings", "skillXPRewards"],
      messageId: "missing",
      data: { missing: missing.map((size) => `"${size}"`).join(", ") },
    });
  },
});
