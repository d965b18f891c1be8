import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "settings/travel-distance",
  severity: "warning",
  description: "`locationSettings.avgTravelDistance` is larger than `locationSettings.regionSize`.",
  why: "Location offsets span one region (regionSize units across). With an average travel distance longer than that, a typical trip leaves the region it starts in, so regions stop working as the neighbourhoods of 3-8 locations the format expects.",
  messages: {
    tooFar:
      "avgTravelDistance ({distance}) is larger than regionSize ({size}), so an average trip leaves the region. Lower avgTravelDistance to {size} or less, or raise regionSize.",
  },
  examples: {
    bad: { locationSettings: { avgTravelDistance: 150 } },
    good: { locationSettings: { avgTravelDistance: 100 } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("locationSettings")) return;
    const { avgTravelDistance, regionSize } = world.locationSettings;
    if (avgTravelDistance <= regionSize) return;
    report({
      path: ["locationSettings", "avgTravelDistance"],
      messageId: "tooFar",
      data: { distance: avgTravelDistance, size: regionSize },
      related: [{ path: ["locationSettings", "regionSize"], message: "regionSize is set here" }],
    });
  },
});
