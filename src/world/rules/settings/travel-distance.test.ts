import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./travel-distance.ts";

testRule(rule, {
  valid: [
    {},
    { name: "equal to the region size", patch: { locationSettings: { avgTravelDistance: 100 } } },
    {
      name: "skipped while locationSettings has a shape problem",
      patch: { locationSettings: { avgTravelDistance: 500, encountersEnabled: "no" } },
    },
  ],
  invalid: [
    {
      patch: { locationSettings: { avgTravelDistance: 60, regionSize: 50 } },
      errors: [
        {
          path: ["locationSettings", "avgTravelDistance"],
          messageId: "tooFar",
          data: { distance: 60, size: 50 },
        },
      ],
    },
  ],
});
