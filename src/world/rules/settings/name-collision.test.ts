import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./name-collision.ts";

const pool = (name: string) => ({
  [name]: {
    name,
    initialValue: 10,
    maxValue: 10,
    restRechargeMultiplier: 1,
    gainPerLevel: 1,
    rechargeRate: 1,
    color: "#3366cc",
  },
});

testRule(rule, {
  valid: [
    {},
    {
      name: "distinct names",
      patch: { resourceSettings: pool("mana"), attributeSettings: { attributeNames: ["a", "b"] } },
    },
    {
      name: "non-string attribute names are a shape problem, not a collision",
      patch: { attributeSettings: { attributeNames: [1, 1, "wits"] } },
    },
  ],
  invalid: [
    {
      name: "resource keys differing only in case and spaces",
      patch: { resourceSettings: { ...pool("Health"), ...pool(" health ") } },
      errors: [
        {
          path: ["resourceSettings", "Health"],
          messageId: "resource",
          data: { name: "Health", other: "health" },
        },
        {
          path: ["resourceSettings", " health "],
          messageId: "resource",
          data: { name: " health ", other: "health" },
        },
      ],
    },
    {
      name: "attribute names, exact duplicates included",
      patch: { attributeSettings: { attributeNames: ["strength", "wits", "STRENGTH", "wits"] } },
      errors: [
        {
          path: ["attributeSettings", "attributeNames", 2],
          messageId: "attribute",
          data: { name: "STRENGTH", other: "strength" },
        },
        {
          path: ["attributeSettings", "attributeNames", 3],
          messageId: "attribute",
          data: { name: "wits", other: "wits" },
        },
      ],
    },
  ],
});
