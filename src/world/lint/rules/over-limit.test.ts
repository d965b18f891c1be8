import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./over-limit.ts";

const mechanical = (count: number) => {
  const triggers: Record<string, unknown> = { start_sheep: undefined };
  for (let i = 0; i < count; i++)
    triggers[`t${i}`] = {
      name: `t${i}`,
      conditions: [{ type: "game-tick", operator: "greaterThan", value: i }],
      effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }],
    };
  return { triggers };
};

testRule(rule, {
  valid: [{}, mechanical(500)],
  invalid: [{ patch: mechanical(501), errors: [{ path: ["triggers"], messageId: "skipped" }] }],
});
