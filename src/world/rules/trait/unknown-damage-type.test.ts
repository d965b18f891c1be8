import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-damage-type.ts";

testRule(rule, {
  valid: [
    {},
    {
      name: "defined types, exact case",
      patch: { traits: { Brave: { vulnerabilities: ["cold"], resistances: ["blunt"], immunities: [] } } },
    },
    {
      name: "skipped while combatSettings has a shape problem",
      patch: { combatSettings: { damageTypes: "cold" }, traits: { Brave: { resistances: ["fire"] } } },
    },
  ],
  invalid: [
    {
      name: "case matters, and every list is checked",
      patch: {
        traits: {
          Brave: { vulnerabilities: ["fire"], resistances: ["blunt", "Cold"], immunities: ["acid"] },
        },
      },
      errors: [
        {
          path: ["traits", "Brave", "vulnerabilities", 0],
          messageId: "unknown",
          data: { type: "fire", field: "vulnerabilities", trait: "Brave", suggestion: "" },
        },
        {
          path: ["traits", "Brave", "resistances", 1],
          messageId: "unknown",
          data: { type: "Cold", field: "resistances", trait: "Brave", suggestion: ' Did you mean "cold"?' },
        },
        { path: ["traits", "Brave", "immunities", 0], messageId: "unknown" },
      ],
    },
  ],
});
