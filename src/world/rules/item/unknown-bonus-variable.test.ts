import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-bonus-variable.ts";

const bonuses = (...list: { type: string; variable: string }[]) => ({
  items: { Rope: { bonuses: list.map((b) => ({ ...b, value: 1 })) } },
});

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "resources and attributes match trimmed and in any case; stats are free-form",
      patch: bonuses(
        { type: "resource", variable: " Health" },
        { type: "attribute", variable: "STRENGTH" },
        { type: "stat", variable: "anything at all" },
      ),
    },
    {
      name: "no readable attributeSettings: the shape step reports it",
      patch: {
        attributeSettings: { attributeNames: "strength" },
        ...bonuses({ type: "attribute", variable: "luck" }),
      },
    },
  ],
  invalid: [
    {
      name: "example: a truncated skill",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["items", "Rope", "bonuses", 0, "variable"],
          messageId: "unknown",
          data: {
            item: '"Rope"',
            kind: "skill",
            variable: '"climb"',
            suggestion: ' Did you mean "climbing"?',
            where: 'a key of "skills"',
          },
        },
      ],
    },
    {
      name: "one of each checked type, by index; skills match exactly",
      patch: bonuses(
        { type: "resource", variable: "mana" },
        { type: "stat", variable: "armor" },
        { type: "attribute", variable: "wit" },
        { type: "skill", variable: "Climbing" },
      ),
      errors: [
        {
          path: ["items", "Rope", "bonuses", 0, "variable"],
          messageId: "unknown",
          data: {
            item: '"Rope"',
            kind: "resource",
            variable: '"mana"',
            suggestion: "",
            where: 'a key of "resourceSettings" (case does not matter)',
          },
        },
        {
          path: ["items", "Rope", "bonuses", 2, "variable"],
          messageId: "unknown",
          data: {
            item: '"Rope"',
            kind: "attribute",
            variable: '"wit"',
            suggestion: ' Did you mean "wits"?',
            where: "a name in attributeSettings.attributeNames (case does not matter)",
          },
        },
        { path: ["items", "Rope", "bonuses", 3, "variable"], messageId: "unknown" },
      ],
    },
  ],
});
