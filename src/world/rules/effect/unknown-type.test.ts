import { testRule } from "../../../../test/helpers/world.ts";
import { EFFECT_TYPE_NAMES } from "../../schema/effects.ts";
import rule from "./unknown-type.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number) => ["triggers", "start_sheep", "effects", index, "type"];
const types = EFFECT_TYPE_NAMES.join(", ");
const flood = (onCompleteEffects: unknown[]) => ({
  narrativeEvents: { flood: { title: "Flood", beats: "The river rises.", onCompleteEffects } },
});

testRule(rule, {
  valid: [
    {},
    { name: "every effect type", patch: effects(...EFFECT_TYPE_NAMES.map((type) => ({ type }))) },
    { name: "a missing or non-string type is left to the shape check", patch: effects({}, { type: null }) },
    { name: "narrative event effects of known types", patch: flood([{ type: "party-next-step-clear" }]) },
  ],
  invalid: [
    {
      name: "a typo gets a suggestion",
      patch: effects({ type: "quest_init", operator: "set", value: "Lost Sheep" }),
      errors: [
        {
          path: at(0),
          messageId: "unknown",
          data: { type: "quest_init", suggestion: ' Did you mean "quest-init"?', types },
        },
      ],
    },
    {
      name: "a condition type written as an effect",
      patch: effects(
        { type: "quest-init", operator: "set", value: "Lost Sheep" },
        { type: "read-boolean", key: "k" },
      ),
      errors: [
        {
          path: at(1),
          messageId: "conditionType",
          data: { type: "read-boolean", suggestion: ' Did you mean "write-boolean"?' },
        },
      ],
    },
    {
      name: "narrative events' onCompleteEffects are checked too",
      patch: flood([{ type: "party-next-step-clear" }, { type: "teleport" }]),
      errors: [
        {
          path: ["narrativeEvents", "flood", "onCompleteEffects", 1, "type"],
          messageId: "unknown",
          data: { type: "teleport", suggestion: "", types },
        },
      ],
    },
  ],
});
