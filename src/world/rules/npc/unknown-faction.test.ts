import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-faction.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "no faction", patch: { npcs: { "Ada Reed": { faction: undefined } } } },
    { name: "a blank faction", patch: { npcs: { "Ada Reed": { faction: "" } } } },
  ],
  invalid: [
    {
      name: "example: singular for plural",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["npcs", "Ada Reed", "faction"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', faction: '"Miller"', suggestion: ' Did you mean "Millers"?' },
        },
      ],
    },
    {
      name: "a faction no one defined",
      patch: { npcs: { "Ada Reed": { faction: "Shepherds' Circle" } } },
      errors: [
        {
          path: ["npcs", "Ada Reed", "faction"],
          messageId: "unknown",
          data: { npc: '"Ada Reed"', faction: '"Shepherds\' Circle"', suggestion: "" },
        },
      ],
    },
  ],
});
