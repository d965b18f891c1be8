import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-destination.ts";

const move = (type: string, value: unknown) => ({ type, operator: "set", value });
const at = (type: string, operator: string, value: unknown) => ({ type, operator, value });
const triggers = (conditions: unknown[], effects: unknown[]) => ({
  triggers: { start_sheep: { conditions, effects } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "one move of each kind; an area of any location",
      patch: triggers(
        [at("party-area", "equals", "Porch")],
        [move("party-realm", "Vale"), move("party-region", "Southmarsh"), move("party-location", "Fen Hut")],
      ),
    },
    {
      name: "conditions other than equals may name anything",
      patch: triggers(
        [
          at("party-location", "notEquals", "Nowhere"),
          at("party-region", "contains", "field"),
          at("party-area", "regex", "^Mill"),
        ],
        [],
      ),
    },
    { name: "a non-string value is the shape step's", patch: triggers([], [move("party-area", 3)]) },
  ],
  invalid: [
    {
      name: "example: a typo in a location move",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "effect",
          data: { kind: "location", name: '"Old Mil"', suggestion: ' Did you mean "Old Mill"?' },
        },
      ],
    },
    {
      name: "equals conditions, each kind of effect, and a narrative event effect",
      patch: {
        ...triggers(
          [at("party-area", "equals", "Attic"), at("party-realm", "equals", "vale")],
          [move("party-region", "Northfeld"), move("party-area", "Old Mill")],
        ),
        narrativeEvents: {
          storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [move("party-realm", "Elsewhere")] },
        },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "value"],
          messageId: "condition",
          data: { kind: "area", name: '"Attic"', suggestion: "" },
        },
        {
          path: ["triggers", "start_sheep", "conditions", 1, "value"],
          messageId: "condition",
          data: { kind: "realm", name: '"vale"', suggestion: ' Did you mean "Vale"?' },
        },
        {
          path: ["triggers", "start_sheep", "effects", 0, "value"],
          messageId: "effect",
          data: { kind: "region", name: '"Northfeld"', suggestion: ' Did you mean "Northfield"?' },
        },
        {
          path: ["triggers", "start_sheep", "effects", 1, "value"],
          messageId: "effect",
          data: { kind: "area", name: '"Old Mill"', suggestion: "" },
        },
        {
          path: ["narrativeEvents", "storm", "onCompleteEffects", 0, "value"],
          messageId: "effect",
          data: { kind: "realm", name: '"Elsewhere"', suggestion: "" },
        },
      ],
    },
  ],
});
