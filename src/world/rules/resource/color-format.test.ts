import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./color-format.ts";

const color = (value: string) => ({ resourceSettings: { health: { color: value } } });

testRule(rule, {
  valid: [{}, rule.examples!.good, color("#ABCDEF"), color("#0a0b0c")],
  invalid: [
    {
      name: "example: a colour name",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["resourceSettings", "health", "color"],
          messageId: "format",
          data: { resource: '"health"', color: '"red"' },
        },
      ],
    },
    ...["#c33", "cc3333", "#cc33334", "#gg3333", " #cc3333", ""].map((value) => ({
      name: `not #RRGGBB: ${JSON.stringify(value)}`,
      patch: color(value),
      errors: [{ path: ["resourceSettings", "health", "color"] }],
    })),
  ],
});
