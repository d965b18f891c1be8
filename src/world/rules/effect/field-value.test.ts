import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./field-value.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number, field: string) => ["triggers", "start_sheep", "effects", index, field];

testRule(rule, {
  valid: [
    {},
    {
      name: "allowed sources and targets",
      patch: effects(
        { type: "quest-next-step-set", questId: "Lost Sheep", text: "Search.", source: "narrative-event" },
        { type: "party-next-step-set", text: "Rest.", source: "objective" },
        { type: "player-resource", resource: "health", operator: "add", value: 1, target: "allPlayers" },
        { type: "player-traits", operator: "add", value: "Brave", target: "satisfyingPlayers" },
      ),
    },
    {
      name: "missing and non-string values are effect/missing-field's",
      patch: effects(
        { type: "party-next-step-set", text: "Rest." },
        { type: "party-next-step-set", text: "x", source: 1 },
      ),
    },
    {
      name: "target on a type without one is an unknown field",
      patch: effects({ type: "story", instruction: "x", target: "me" }),
    },
  ],
  invalid: [
    {
      name: "a source that is not objective or narrative-event",
      patch: effects({ type: "party-next-step-set", text: "Find the sheep.", source: "quest" }),
      errors: [
        {
          path: at(0, "source"),
          messageId: "value",
          data: {
            field: "source",
            type: "party-next-step-set",
            value: "quest",
            allowed: '"objective", "narrative-event"',
            suggestion: "",
          },
        },
      ],
    },
    {
      name: "a target near a valid one",
      patch: effects(
        { type: "player-resource", resource: "health", operator: "add", value: 1, target: "allPlayer" },
        { type: "player-traits", operator: "add", value: "Brave", target: "party" },
      ),
      errors: [
        {
          path: at(0, "target"),
          messageId: "value",
          data: {
            field: "target",
            type: "player-resource",
            value: "allPlayer",
            allowed: '"allPlayers", "satisfyingPlayers"',
            suggestion: ' Did you mean "allPlayers"?',
          },
        },
        { path: at(1, "target"), messageId: "value" },
      ],
    },
  ],
});
