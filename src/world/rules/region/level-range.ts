import type { JsonPath } from "../../diagnostic.ts";
import { defineRule, type Report } from "../../rule.ts";

export const LEVEL_RANGE_MESSAGES = {
  notPositiveInteger:
    "npcLevelRange.{field} of {owner} is {value}, but NPC levels are whole numbers of 1 or more. Use a positive integer.",
  reversed: "npcLevelRange of {owner} has min {min} above max {max}. Swap them so that min <= max.",
};

type LevelRangeMessage = keyof typeof LEVEL_RANGE_MESSAGES;

/**
 * Problems of one `npcLevelRange` (regions and locations share the shape):
 * both bounds positive integers, min not above max.
 */
export function levelRangeReports(
  range: { min: number; max: number },
  path: JsonPath,
  owner: string,
): Report<LevelRangeMessage>[] {
  const reports: Report<LevelRangeMessage>[] = [];
  for (const field of ["min", "max"] as const) {
    const value = range[field];
    if (Number.isInteger(value) && value >= 1) continue;
    reports.push({ path: [...path, field], messageId: "notPositiveInteger", data: { field, owner, value } });
  }
  if (reports.length === 0 && range.min > range.max) {
    reports.push({ path, messageId: "reversed", data: { owner, min: range.min, max: range.max } });
  }
  return reports;
}

export default defineRule({
  code: "region/level-range",
  severity: "error",
  description:
    "A region's `npcLevelRange` is not two positive integers with min <= max (docs/format.md, regions).",
  why: "The level range steers the levels of NPCs the AI generates in the region. Levels are whole numbers from 1; a fractional, zero or negative bound, or a min above max, leaves no valid level to pick.",
  messages: LEVEL_RANGE_MESSAGES,
  examples: {
    bad: { regions: { Northfield: { npcLevelRange: { min: 5, max: 2 } } } },
    good: { regions: { Northfield: { npcLevelRange: { min: 2, max: 5 } } } },
  },
  check({ world, report }) {
    for (const [key, region] of Object.entries(world.regions)) {
      if (!region.npcLevelRange) continue;
      for (const found of levelRangeReports(
        region.npcLevelRange,
        ["regions", key, "npcLevelRange"],
        `region "${key}"`,
      ))
        report(found);
    }
  },
});
