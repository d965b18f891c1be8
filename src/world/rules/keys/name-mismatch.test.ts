import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./name-mismatch.ts";

testRule(rule, {
  valid: [
    {},
    {
      name: "keys with spaces match",
      patch: { factions: { "Old Guard": { name: "Old Guard", basicInfo: "x", factionType: "major" } } },
    },
  ],
  invalid: [
    {
      name: "case differs",
      patch: { items: { Rope: { name: "rope" } } },
      errors: [
        {
          path: ["items", "Rope", "name"],
          messageId: "mismatch",
          data: { key: '"Rope"', name: '"rope"', section: "items" },
        },
      ],
    },
    {
      name: "trailing space in a trigger name",
      patch: { triggers: { start_sheep: { name: "start_sheep " } } },
      errors: [{ path: ["triggers", "start_sheep", "name"], messageId: "mismatch" }],
    },
    {
      name: "resource settings and game modes",
      patch: { resourceSettings: { health: { name: "Health" } }, gameModes: { Story: { name: "story" } } },
      errors: [
        { path: ["gameModes", "Story", "name"], messageId: "mismatch" },
        { path: ["resourceSettings", "health", "name"], messageId: "mismatch" },
      ],
    },
  ],
});
