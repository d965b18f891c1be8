import { testRule } from "../../../../test/helpers/world.ts";
import { CONDITION_TYPES, type ConditionType } from "../../schema/conditions.ts";
import rule from "./operator-not-allowed.ts";

const conditions = (...list: unknown[]) => ({ triggers: { start_sheep: { conditions: list } } });
const at = (index: number) => ["triggers", "start_sheep", "conditions", index, "operator"];

const everyAllowedPair = Object.entries(CONDITION_TYPES).flatMap(([type, spec]) =>
  spec.operators.map((operator) => ({ type: type as ConditionType, operator })),
);

testRule(rule, {
  valid: [
    {},
    { name: "every operator of every type", patch: conditions(...everyAllowedPair) },
    {
      name: "or-equal-to spellings are left to condition/or-equal-to where the fix is allowed",
      patch: conditions(
        { type: "game-tick", operator: "greaterThanOrEqualTo", value: 1 },
        { type: "read-number", key: "n", operator: "lessThanOrEqualTo", value: 1 },
      ),
    },
    {
      name: "story and action take no operator (the shape step warns about the unknown field)",
      patch: conditions({ type: "story", query: "x", operator: "equals" }),
    },
    {
      name: "missing or non-string operators are condition/missing-field's",
      patch: conditions({ type: "game-tick", operator: 3 }),
    },
  ],
  invalid: [
    {
      name: "a text operator on a number",
      patch: conditions({ type: "game-tick", operator: "contains", value: 0 }),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: {
            operator: "contains",
            type: "game-tick",
            suggestion: "",
            allowed: "equals, notEquals, greaterThan, lessThan, greaterThanOrEqual, lessThanOrEqual",
          },
        },
      ],
    },
    {
      name: "a numeric operator on a flag, and a near miss",
      patch: conditions(
        { type: "read-boolean", key: "gate", operator: "greaterThan", value: true },
        { type: "party-area", operator: "equal", value: "Loft" },
      ),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: {
            operator: "greaterThan",
            type: "read-boolean",
            suggestion: "",
            allowed: "equals, notEquals",
          },
        },
        {
          path: at(1),
          messageId: "operator",
          data: {
            operator: "equal",
            type: "party-area",
            suggestion: ' Did you mean "equals"?',
            allowed: "equals, notEquals, contains, notContains, regex",
          },
        },
      ],
    },
    {
      name: "an or-equal-to spelling whose fix is not allowed either",
      patch: conditions({ type: "read-string", key: "k", operator: "greaterThanOrEqualTo", value: "a" }),
      errors: [{ path: at(0), messageId: "operator" }],
    },
    {
      name: "regex is for text only",
      patch: conditions({ type: "player-traits", operator: "regex", value: "Bra.*" }),
      errors: [
        {
          path: at(0),
          messageId: "operator",
          data: {
            operator: "regex",
            type: "player-traits",
            suggestion: "",
            allowed: "contains, notContains",
          },
        },
      ],
    },
  ],
});
