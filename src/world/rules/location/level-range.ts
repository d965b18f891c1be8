import { defineRule } from "../../rule.ts";
import { LEVEL_RANGE_MESSAGES, levelRangeReports } from "../region/level-range.ts";

export default defineRule({
  code: "location/level-range",
  severity: "error",
  description: "A location's `npcLevelRange` is not two positive integers with min <= max.",
  why: "A location's level range overrides its region's for the NPCs the AI generates there (docs/format.md, regions). Levels are whole numbers from 1; a fractional, zero or negative bound, or a min above max, leaves no valid level to pick.",
  messages: LEVEL_RANGE_MESSAGES,
  examples: {
    bad: { locations: { "Old Mill": { npcLevelRange: { min: 0, max: 3 } } } },
    good: { locations: { "Old Mill": { npcLevelRange: { min: 1, max: 3 } } } },
  },
  check({ world, report }) {
    for (const [key, location] of Object.entries(world.locations)) {
      if (!location.npcLevelRange) continue;
      const path = ["locations", key, "npcLevelRange"];
      for (const found of levelRangeReports(location.npcLevelRange, path, `location "${key}"`)) report(found);
    }
  },
});
