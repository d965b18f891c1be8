import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-resource.ts";

const resources = (...names: string[]) => ({
  traits: { Brave: { resources: names.map((resource) => ({ resource, modifier: 5 })) } },
});

testRule(rule, {
  valid: [
    {},
    { name: "case and surrounding spaces are ignored", patch: resources(" Health ", "HEALTH") },
    {
      name: "skipped while resourceSettings is not an object",
      patch: { resourceSettings: [], ...resources("mana") },
    },
  ],
  invalid: [
    {
      patch: resources("helth", "mana"),
      errors: [
        {
          path: ["traits", "Brave", "resources", 0, "resource"],
          messageId: "unknown",
          data: { resource: "helth", trait: "Brave", suggestion: ' Did you mean "health"?' },
        },
        {
          path: ["traits", "Brave", "resources", 1, "resource"],
          messageId: "unknown",
          data: { resource: "mana", trait: "Brave", suggestion: "" },
        },
      ],
    },
  ],
});
