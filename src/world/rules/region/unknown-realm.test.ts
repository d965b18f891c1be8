import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-realm.ts";

testRule(rule, {
  valid: [
    {},
    { name: "an empty realm, as real exports write it", patch: { regions: { Southmarsh: { realm: "" } } } },
    { name: "an omitted realm", patch: { regions: { Southmarsh: { realm: undefined } } } },
    {
      name: "a realm with its own shape problem still exists",
      patch: { realms: { Peaks: { name: "Peaks" } }, regions: { Southmarsh: { realm: "Peaks" } } },
    },
  ],
  invalid: [
    {
      name: "case differs",
      patch: { regions: { Southmarsh: { realm: "vale" } } },
      errors: [
        {
          path: ["regions", "Southmarsh", "realm"],
          messageId: "unknown",
          data: { region: "Southmarsh", realm: "vale", suggestion: ' Did you mean "Vale"?' },
        },
      ],
    },
    {
      name: "blank is not empty",
      patch: { regions: { Northfield: { realm: " " } } },
      errors: [{ path: ["regions", "Northfield", "realm"], messageId: "unknown" }],
    },
  ],
});
