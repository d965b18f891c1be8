import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./skill-xp-rewards.ts";

testRule(rule, {
  valid: [
    {},
    { name: "extra sizes are fine", patch: { skillSettings: { skillXPRewards: { epic: 500 } } } },
    {
      name: "a missing skillXPRewards is a shape problem",
      patch: { skillSettings: { skillXPRewards: undefined } },
    },
  ],
  invalid: [
    {
      name: "one size missing",
      patch: { skillSettings: { skillXPRewards: { huge: undefined } } },
      errors: [
        { path: ["skillSettings", "skillXPRewards"], messageId: "missing", data: { missing: '"huge"' } },
      ],
    },
    {
      name: "sizes are matched exactly",
      patch: { skillSettings: { skillXPRewards: { small: undefined, Small: 10, medium: undefined } } },
      errors: [
        {
          path: ["skillSettings", "skillXPRewards"],
          messageId: "missing",
          data: { missing: '"small", "medium"' },
        },
      ],
    },
  ],
});
