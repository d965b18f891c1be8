import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-faction.ts";

testRule(rule, {
  valid: [
    {},
    { name: "a known faction", patch: { regions: { Northfield: { factions: ["Millers"] } } } },
    {
      name: "a faction with its own shape problem still exists",
      patch: { factions: { Reeds: { name: "Reeds" } }, regions: { Southmarsh: { factions: ["Reeds"] } } },
    },
  ],
  invalid: [
    {
      patch: { regions: { Northfield: { factions: ["Millers", "millers", "Bandits"] } } },
      errors: [
        {
          path: ["regions", "Northfield", "factions", 1],
          messageId: "unknown",
          data: { faction: "millers", region: "Northfield", suggestion: ' Did you mean "Millers"?' },
        },
        {
          path: ["regions", "Northfield", "factions", 2],
          messageId: "unknown",
          data: { faction: "Bandits", region: "Northfield", suggestion: "" },
        },
      ],
    },
  ],
});
