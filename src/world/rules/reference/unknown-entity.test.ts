import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-entity.ts";

const known = (entity: unknown) => ({ type: "known-entity", entity, operator: "equals", value: true });
const toggle = (entity: unknown) => ({ type: "known-entity", entity, operator: "toggle" });
const triggers = (conditions: unknown[], effects: unknown[]) => ({
  triggers: { start_sheep: { conditions, effects } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "one of each kind: realm, region, location, faction, NPC",
      patch: triggers(
        [known("Vale"), known("Northfield"), known("Old Mill")],
        [toggle("Millers"), toggle("Ada Reed")],
      ),
    },
    { name: "a non-string entity is the shape step's", patch: triggers([known(7)], []) },
  ],
  invalid: [
    {
      name: "example: a first name only",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "entity"],
          messageId: "unknown",
          data: { entity: '"Ada"', suggestion: "" },
        },
      ],
    },
    {
      name: "areas, items and case slips are not entities",
      patch: triggers([known("Millyard"), known("old mill")], [toggle("Rope")]),
      errors: [
        { path: ["triggers", "start_sheep", "conditions", 0, "entity"], messageId: "unknown" },
        {
          path: ["triggers", "start_sheep", "conditions", 1, "entity"],
          messageId: "unknown",
          data: { entity: '"old mill"', suggestion: ' Did you mean "Old Mill"?' },
        },
        { path: ["triggers", "start_sheep", "effects", 0, "entity"], messageId: "unknown" },
      ],
    },
  ],
});
