import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-resource.ts";

const condition = (resource: unknown) => ({
  type: "player-resource",
  resource,
  operator: "lessThan",
  value: 5,
});
const effect = (resource: unknown) => ({ type: "player-resource", resource, operator: "subtract", value: 1 });
const triggers = (conditions: unknown[], effects: unknown[]) => ({
  triggers: { start_sheep: { conditions, effects } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "case and surrounding spaces do not matter",
      patch: triggers([condition(" HEALTH ")], [effect("health")]),
    },
    { name: "a non-string resource is the shape step's", patch: triggers([condition(1)], []) },
    {
      name: "no resourceSettings object: the shape step reports it",
      patch: { resourceSettings: [], ...triggers([condition("mana")], []) },
    },
  ],
  invalid: [
    {
      name: "example: an abbreviation",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "resource"],
          messageId: "unknown",
          data: { resource: '"hp"', suggestion: "" },
        },
      ],
    },
    {
      name: "a typo in a condition and in a narrative event effect",
      patch: {
        ...triggers([condition("heath")], []),
        narrativeEvents: { storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [effect("mana")] } },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "resource"],
          messageId: "unknown",
          data: { resource: '"heath"', suggestion: ' Did you mean "health"?' },
        },
        { path: ["narrativeEvents", "storm", "onCompleteEffects", 0, "resource"], messageId: "unknown" },
      ],
    },
  ],
});
