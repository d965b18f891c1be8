import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "resource/recharge-rate-integer",
  severity: "error",
  description: "A resource's `rechargeRate` is not a whole number.",
  why: "The format defines `rechargeRate` as an integer (docs/format.md, resource definition): a pool recharges by whole points. A fractional rate is outside the format, so other tools that read the world may reject it.",
  messages: {
    fraction:
      'rechargeRate of resource "{resource}" is {value}, but it must be a whole number. Use {rounded}.',
  },
  examples: {
    bad: { resourceSettings: { health: { rechargeRate: 0.5 } } },
    good: { resourceSettings: { health: { rechargeRate: 2 } } },
  },
  check({ world, report }) {
    for (const [key, resource] of Object.entries(world.resourceSettings)) {
      if (Number.isInteger(resource.rechargeRate)) continue;
      report({
        path: ["resourceSettings", key, "rechargeRate"],
        messageId: "fraction",
        data: { resource: key, value: resource.rechargeRate, rounded: Math.round(resource.rechargeRate) },
      });
    }
  },
});
