import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "region/non-integer-position",
  severity: "error",
  description:
    "A region's `x` or `y` is not a whole number (docs/format.md, regions: integer grid cell positions).",
  why: "Region coordinates count whole cells of the realm map. A fractional position falls between cells, so the region has no place on the map and no edge neighbours.",
  messages: {
    fraction:
      'Region "{region}" has {axis} = {value}, but region positions are whole grid cells. Use {rounded} or another whole number.',
  },
  examples: {
    bad: { regions: { Southmarsh: { y: -0.5 } } },
    good: { regions: { Southmarsh: { y: -1 } } },
  },
  check({ world, report }) {
    for (const [key, region] of Object.entries(world.regions)) {
      for (const axis of ["x", "y"] as const) {
        const value = region[axis];
        if (Number.isInteger(value)) continue;
        report({
          path: ["regions", key, axis],
          messageId: "fraction",
          data: { region: key, axis, value, rounded: Math.round(value) },
        });
      }
    }
  },
});
