import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { isPlainObject } from "../../values.ts";
import { areasByLocation, locationsByArea, quoteList } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-area",
  severity: "error",
  description:
    "A story start's `locationAreas` names no area of its `locations` (of any location when `locations` is empty); entries left over beside an area that matches are ignored, as the platform does.",
  why: "The engine starts in one of `locationAreas` that belongs to the chosen location and, when none does, in any of its areas (docs/engine.md). An entry that matches nothing is silently ignored, so the opening lands in a random area instead of the one written for it.",
  messages: {
    unknown:
      "Area {area} is not an area of {where}.{suggestion} The engine ignores it and starts in a random area; use an area name of {where}.",
    elsewhere:
      'Area {area} belongs to {owners}, which this story start does not list in "locations". Add that location to "locations", or use an area of {where}.',
  },
  examples: {
    bad: { storyStarts: { Morning: { locationAreas: ["Mill Yard"] } } },
    good: { storyStarts: { Morning: { locationAreas: ["Millyard"] } } },
  },
  check({ world, raw, report }) {
    if (!isPlainObject(raw.locations)) return;
    const areas = areasByLocation(raw);
    const owners = locationsByArea(areas);
    for (const [key, start] of Object.entries(world.storyStarts)) {
      // An unknown location is story-start/unknown-location's; its areas cannot be judged until it is fixed.
      if (start.locations.some((location) => !Object.hasOwn(raw.locations as object, location))) continue;
      const listed = start.locations.length > 0;
      const candidates = new Set<string>();
      if (listed)
        for (const location of start.locations)
          for (const a of areas.get(location)?.keys() ?? []) candidates.add(a);
      const where = listed ? `the story start's locations (${quoteList(start.locations)})` : "any location";
      const matches = (area: string) => (listed ? candidates.has(area) : owners.has(area));
      // The engine starts in one of the areas that match; leftovers of a start whose other areas match
      // are ignored and the start plays as written (real exports keep them): only a start whose areas
      // all miss lands somewhere its author did not mean.
      if (start.locationAreas.some(matches)) return;
      start.locationAreas.forEach((area, index) => {
        if (area.trim() === "") return;
        const path = ["storyStarts", key, "locationAreas", index];
        const elsewhere = owners.get(area);
        if (elsewhere) {
          report({
            path,
            messageId: "elsewhere",
            data: { area: JSON.stringify(area), owners: quoteList(elsewhere), where },
          });
          return;
        }
        const suggestion = didYouMean(area, listed ? candidates : owners.keys());
        report({ path, messageId: "unknown", data: { area: JSON.stringify(area), where, suggestion } });
      });
    }
  },
});
