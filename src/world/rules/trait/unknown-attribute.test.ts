import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-attribute.ts";

const attributes = (...names: string[]) => ({
  traits: { Brave: { attributes: names.map((attribute) => ({ attribute, modifier: 1 })) } },
});

testRule(rule, {
  valid: [
    {},
    { name: "case and surrounding spaces are ignored", patch: attributes(" STRENGTH ", "Wits") },
    {
      name: "skipped while attributeSettings has a shape problem",
      patch: { ...attributes("courage"), attributeSettings: { attributeNames: "strength" } },
    },
  ],
  invalid: [
    {
      name: "names not in attributeNames",
      patch: attributes("strength", "strenght", "courage"),
      errors: [
        {
          path: ["traits", "Brave", "attributes", 1, "attribute"],
          messageId: "unknown",
          data: { attribute: "strenght", trait: "Brave", suggestion: ' Did you mean "strength"?' },
        },
        {
          path: ["traits", "Brave", "attributes", 2, "attribute"],
          messageId: "unknown",
          data: { attribute: "courage", trait: "Brave", suggestion: "" },
        },
      ],
    },
    {
      name: "no attributes defined at all",
      patch: { attributeSettings: { attributeNames: [] } },
      errors: [{ path: ["traits", "Brave", "attributes", 0, "attribute"], messageId: "unknown" }],
    },
  ],
});
