import { testRule } from "../../../../test/helpers/world.ts";
import { EFFECT_TYPE_NAMES } from "../../schema/effects.ts";
import { effectSpec } from "../effect-spec.ts";
import rule from "./operator-not-allowed.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number) => ["triggers", "start_sheep", "effects", index, "operator"];

const everyAllowedPair = EFFECT_TYPE_NAMES.flatMap((type) =>
  effectSpec(type).operators.map((operator) => ({ type, operator })),
);

testRule(rule, {
  valid: [
    {},
    { name: "every operator of every type", patch: effects(...everyAllowedPair) },
    {
      name: "types without operators (the shape step warns about the unknown field)",
      patch: effects({ type: "quest-progress", questId: "Lost Sheep", operator: "set" }),
    },
    {
      name: "missing and non-string operators are effect/missing-field's",
      patch: effects({ type: "write-number", key: "n", operator: 1 }),
    },
  ],
  invalid: [
    {
      name: "quest-init only sets",
      patch: effects({ type: "quest-init", operator: "add", value: "Lost Sheep" }),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: { operator: "add", type: "quest-init", suggestion: "", allowed: "set" },
        },
      ],
    },
    {
      name: "toggle is for flags, and a near miss",
      patch: effects(
        { type: "write-number", key: "n", operator: "toggle", value: 1 },
        { type: "player-resource", resource: "health", operator: "subtact", value: 1 },
      ),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: {
            operator: "toggle",
            type: "write-number",
            suggestion: "",
            allowed: "add, subtract, multiply, divide, set",
          },
        },
        {
          path: at(1),
          messageId: "operator",
          data: {
            operator: "subtact",
            type: "player-resource",
            suggestion: ' Did you mean "subtract"?',
            allowed: "add, subtract, multiply, divide, set",
          },
        },
      ],
    },
    {
      name: "condition operators on effects",
      patch: effects({ type: "write-array", key: "a", operator: "contains", value: "x" }),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: { operator: "contains", type: "write-array", suggestion: "", allowed: "set, add, remove" },
        },
      ],
    },
  ],
});
