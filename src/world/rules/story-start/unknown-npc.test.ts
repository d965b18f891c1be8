import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-npc.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "an empty party", patch: { storyStarts: { Morning: { startingPartyNPCs: [] } } } },
  ],
  invalid: [
    {
      name: "example: a first name only",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["storyStarts", "Morning", "startingPartyNPCs", 0],
          messageId: "unknown",
          data: { npc: '"Ada"', suggestion: "" },
        },
      ],
    },
    {
      name: "a case slip, by index",
      patch: { storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed", "ada reed"] } } },
      errors: [
        {
          path: ["storyStarts", "Morning", "startingPartyNPCs", 1],
          messageId: "unknown",
          data: { npc: '"ada reed"', suggestion: ' Did you mean "Ada Reed"?' },
        },
      ],
    },
    {
      name: "an empty entry (real exports hold them): skipped, so a warning",
      patch: { storyStarts: { Morning: { startingPartyNPCs: ["", "Ada Reed"] } } },
      errors: [{ path: ["storyStarts", "Morning", "startingPartyNPCs", 0], messageId: "unknown" }],
    },
  ],
});
