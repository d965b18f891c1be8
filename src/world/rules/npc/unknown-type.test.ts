import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-type.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "a blank type: no type", patch: { npcs: { "Ada Reed": { type: "" } } } },
  ],
  invalid: [
    {
      name: "example: case differs",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "type"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', type: '"Human"', suggestion: ' Did you mean "human"?' },
        },
      ],
    },
    {
      name: "free text that names no type",
      patch: { npcs: { "Ada Reed": { type: "weary shepherd" } } },
      errors: [
        {
          path: ["npcs", "Ada Reed", "type"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', type: '"weary shepherd"', suggestion: "" },
        },
      ],
    },
  ],
});
