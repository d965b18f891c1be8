import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-skill.ts";

const skills = (...names: string[]) => ({
  traits: { Brave: { skills: names.map((skill) => ({ skill, modifier: -1 })) } },
});

testRule(rule, {
  valid: [
    {},
    {
      name: "a skill with its own shape problem still exists",
      patch: { skills: { swimming: { name: "swimming" } }, ...skills("climbing", "swimming") },
    },
  ],
  invalid: [
    {
      patch: skills("Climbing", "sailing"),
      errors: [
        {
          path: ["traits", "Brave", "skills", 0, "skill"],
          messageId: "unknown",
          data: { skill: "Climbing", trait: "Brave", suggestion: ' Did you mean "climbing"?' },
        },
        {
          path: ["traits", "Brave", "skills", 1, "skill"],
          messageId: "unknown",
          data: { skill: "sailing", trait: "Brave", suggestion: "" },
        },
      ],
    },
  ],
});
