import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "region/unknown-faction",
  severity: "warning",
  description: "A name in a region's `factions` is not a key of `factions`.",
  why: "The names in a region's `factions` must equal faction keys (docs/format.md, regions): they mark a faction's presence across the region. A name that matches no faction marks nothing; it is usually a typo or a faction that was renamed. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Faction "{faction}" of region "{region}" is not a key of factions.{suggestion} Use a faction key exactly as written, or define the faction.',
  },
  examples: {
    bad: { regions: { Northfield: { factions: ["Miller"] } } },
    good: { regions: { Northfield: { factions: ["Millers"] } } },
  },
  check({ world, raw, report }) {
    const known = keysOf(raw, "factions");
    if (!known) return;
    for (const [key, region] of Object.entries(world.regions)) {
      region.factions?.forEach((faction, i) => {
        if (known.has(faction)) return;
        report({
          path: ["regions", key, "factions", i],
          messageId: "unknown",
          data: { faction, region: key, suggestion: didYouMean(faction, known) },
        });
      });
    }
  },
});
