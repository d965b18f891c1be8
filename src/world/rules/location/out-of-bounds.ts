import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "location/out-of-bounds",
  severity: "error",
  description:
    "A location's `x` or `y` is outside [-regionSize/2, +regionSize/2], the offset range from its region's centre.",
  why: "Location coordinates are offsets from the centre of the location's region (docs/format.md, regions; -50 to +50 with the default regionSize of 100). A value past the edge lies in a neighbouring region, so the location is drawn and reached somewhere other than the region it names.",
  messages: {
    outside:
      'Location "{location}" has {axis} = {value}, outside its region ({min} to {max}, half of locationSettings.regionSize each way from the centre). Move it inside that range, or put it in the neighbouring region.',
  },
  examples: {
    bad: { locations: { "Fen Hut": { x: 60 } } },
    good: { locations: { "Fen Hut": { x: 50 } } },
  },
  check({ world, sectionValid, report }) {
    if (!sectionValid("locationSettings")) return;
    const half = world.locationSettings.regionSize / 2;
    if (!(half > 0)) return;
    for (const [key, location] of Object.entries(world.locations)) {
      for (const axis of ["x", "y"] as const) {
        const value = location[axis];
        if (value >= -half && value <= half) continue;
        report({
          path: ["locations", key, axis],
          messageId: "outside",
          data: { location: key, axis, value, min: -half, max: half },
        });
      }
    }
  },
});
