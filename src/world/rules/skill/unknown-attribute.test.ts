import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-attribute.ts";

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "matched ignoring case and spaces", patch: { skills: { climbing: { attribute: " WITS " } } } },
    {
      name: "an unreadable attributeSettings is the shape step's business",
      patch: { attributeSettings: { attributeNames: "strength" }, skills: { climbing: { attribute: "x" } } },
    },
  ],
  invalid: [
    {
      name: "example: a typo",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["skills", "climbing", "attribute"],
          messageId: "unknown",
          data: {
            skill: '"climbing"',
            attribute: '"strenght"',
            suggestion: ' Did you mean "strength"?',
            valid: '"strength", "wits"',
          },
        },
      ],
    },
  ],
});
