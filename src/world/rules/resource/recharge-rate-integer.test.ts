import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./recharge-rate-integer.ts";

const rate = (rechargeRate: number) => ({ resourceSettings: { health: { rechargeRate } } });

testRule(rule, {
  valid: [{}, rate(0), rate(-2), rate(1e6)],
  invalid: [
    {
      patch: rate(1.5),
      errors: [
        {
          path: ["resourceSettings", "health", "rechargeRate"],
          messageId: "fraction",
          data: { resource: "health", value: 1.5, rounded: 2 },
        },
      ],
    },
    {
      patch: rate(-0.25),
      errors: [{ path: ["resourceSettings", "health", "rechargeRate"], messageId: "fraction" }],
    },
  ],
});
