import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./health-count.ts";

const pool = (name: string, isHealth?: boolean) => ({
  [name]: {
    name,
    initialValue: 10,
    maxValue: 10,
    restRechargeMultiplier: 1,
    gainPerLevel: 1,
    rechargeRate: 1,
    color: "#3366cc",
    ...(isHealth === undefined ? {} : { isHealth }),
  },
});

testRule(rule, {
  valid: [
    {},
    {
      name: "other pools are not health",
      patch: { resourceSettings: { ...pool("mana"), ...pool("grit", false) } },
    },
    {
      name: "a health pool with its own shape problem still counts",
      patch: { resourceSettings: { health: { color: 5 } } },
    },
    { name: "skipped while resourceSettings is not an object", patch: { resourceSettings: "health" } },
  ],
  invalid: [
    {
      name: "none marked",
      patch: { resourceSettings: { health: { isHealth: undefined }, ...pool("mana", false) } },
      errors: [{ path: ["resourceSettings"], messageId: "none" }],
    },
    {
      name: "an empty resourceSettings",
      patch: { resourceSettings: { health: undefined } },
      errors: [{ path: ["resourceSettings"], messageId: "none" }],
    },
    {
      name: "three marked: one report naming all, at the second",
      patch: { resourceSettings: { ...pool("mana", true), ...pool("vigor", true) } },
      errors: [
        {
          path: ["resourceSettings", "mana", "isHealth"],
          messageId: "several",
          data: { names: '"health", "mana", "vigor"' },
        },
      ],
    },
  ],
});
