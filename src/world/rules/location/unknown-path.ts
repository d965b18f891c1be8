import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";

export default defineRule({
  code: "location/unknown-path",
  severity: "warning",
  description: "An area's `paths` names something that is not an area of the same location.",
  why: "Paths link the areas of one location; the party moves along them. A path to a name that is no area of the location leads nowhere: the party cannot follow it, and the narrator may describe an exit that does not exist.",
  messages: {
    unknown:
      'Path "{path}" from area "{area}" is not an area of location "{location}", so it leads nowhere.{suggestion} Name an area of this location exactly as written, add that area, or remove the path.',
  },
  examples: {
    bad: { locations: { "Old Mill": { areas: { Loft: { paths: ["Mill Yard"] } } } } },
    good: { locations: { "Old Mill": { areas: { Loft: { paths: ["Millyard"] } } } } },
  },
  check({ world, report }) {
    // Index loops, no closure per area: the rule runs once per check, mostly interpreted, where
    // destructuring with for...of and a forEach callback cost more than the lookups themselves.
    const locations = Object.entries(world.locations);
    for (let row = 0; row < locations.length; row++) {
      const key = locations[row]![0];
      const byName = locations[row]![1].areas ?? {};
      const areas = Object.keys(byName);
      const known = new Set(areas);
      for (let a = 0; a < areas.length; a++) {
        const area = areas[a]!;
        const paths = byName[area]!.paths;
        for (let i = 0; i < paths.length; i++) {
          const path = paths[i]!;
          if (known.has(path)) continue;
          report({
            path: ["locations", key, "areas", area, "paths", i],
            messageId: "unknown",
            data: { path, area, location: key, suggestion: didYouMean(path, areas) },
          });
        }
      }
    }
  },
});
