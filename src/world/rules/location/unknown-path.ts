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
    for (const [key, location] of Object.entries(world.locations)) {
      const areas = Object.keys(location.areas ?? {});
      const known = new Set(areas);
      for (const [area, { paths }] of Object.entries(location.areas ?? {})) {
        paths.forEach((path, i) => {
          if (known.has(path)) return;
          report({
            path: ["locations", key, "areas", area, "paths", i],
            messageId: "unknown",
            data: { path, area, location: key, suggestion: didYouMean(path, areas) },
          });
        });
      }
    }
  },
});
