import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "location/unknown-region",
  severity: "error",
  description: "A location's `region` is not a key of `regions`.",
  why: "A location's coordinates are an offset from its region's centre, and moving the party there also sets the region and its realm. With a region that does not exist, the location has no place on any map.",
  messages: {
    unknown:
      'Location "{location}" is in region "{region}", which is not a key of regions.{suggestion} Use a region key exactly as written, or define the region.',
  },
  examples: {
    bad: { locations: { "Old Mill": { region: "North Field" } } },
    good: { locations: { "Old Mill": { region: "Northfield" } } },
  },
  check({ world, raw, report }) {
    // Compare with every region key as written, so a region with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "regions");
    if (!known) return;
    for (const [key, location] of Object.entries(world.locations)) {
      if (location.region.trim() === "" || known.has(location.region)) continue;
      report({
        path: ["locations", key, "region"],
        messageId: "unknown",
        data: { location: key, region: location.region, suggestion: didYouMean(location.region, known) },
      });
    }
  },
});
