import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-event.ts";

const storm = { storm: { title: "Storm", beats: "The river rises." } };

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "a status condition and a start from another event's completion",
      patch: {
        narrativeEvents: {
          ...storm,
          flood: {
            title: "Flood",
            beats: "Water everywhere.",
            onCompleteEffects: [{ type: "narrative-event-start", eventId: "storm" }],
          },
        },
        triggers: {
          start_sheep: {
            conditions: [
              { type: "narrative-event-status", eventId: "flood", operator: "equals", value: "active" },
            ],
          },
        },
      },
    },
    {
      name: "a non-string eventId is the shape step's",
      patch: { triggers: { start_sheep: { effects: [{ type: "narrative-event-start", eventId: 1 }] } } },
    },
  ],
  invalid: [
    {
      name: "example: no narrativeEvents at all",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "effects", 0, "eventId"],
          messageId: "noEvents",
          data: { event: '"storm"' },
        },
      ],
    },
    {
      name: "a near key in a condition and in a completion effect",
      patch: {
        narrativeEvents: {
          ...storm,
          flood: {
            title: "Flood",
            beats: "Water.",
            onCompleteEffects: [{ type: "narrative-event-start", eventId: "drought" }],
          },
        },
        triggers: {
          start_sheep: {
            conditions: [
              { type: "narrative-event-status", eventId: "Storm", operator: "equals", value: "active" },
            ],
          },
        },
      },
      errors: [
        {
          path: ["triggers", "start_sheep", "conditions", 0, "eventId"],
          messageId: "unknown",
          data: { event: '"Storm"', suggestion: ' Did you mean "storm"?' },
        },
        {
          path: ["narrativeEvents", "flood", "onCompleteEffects", 0, "eventId"],
          messageId: "unknown",
          data: { event: '"drought"', suggestion: "" },
        },
      ],
    },
  ],
});
