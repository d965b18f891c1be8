import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-location.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Loft" } } },
    {
      name: '"" is "not placed yet", as real exports write it (issue 35)',
      patch: { npcs: { "Ada Reed": { currentLocation: "", currentArea: "" } } },
    },
  ],
  invalid: [
    {
      name: "example: case differs",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentLocation"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', location: '"Fen hut"', suggestion: ' Did you mean "Fen Hut"?' },
        },
      ],
    },
    {
      name: "a region is not a location",
      patch: { npcs: { "Ada Reed": { currentLocation: "Southmarsh" } } },
      errors: [
        {
          path: ["npcs", "Ada Reed", "currentLocation"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', location: '"Southmarsh"', suggestion: "" },
        },
      ],
    },
  ],
});
