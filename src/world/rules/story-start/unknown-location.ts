import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-location",
  severity: "error",
  description: "A story start's `locations` lists a name that is not a key of `locations`.",
  why: "A game begins at one of the story start's locations, picked at random (docs/engine.md). A name that matches no location can start the party nowhere.",
  messages: {
    unknown:
      'Story start {start} lists location {location}, which does not exist.{suggestion} Use a key of "locations", or remove the entry.',
  },
  examples: {
    bad: { storyStarts: { Morning: { locations: ["Old Mil"] } } },
    good: { storyStarts: { Morning: { locations: ["Old Mill"] } } },
  },
  check({ world, raw, report }) {
    const locations = keysOf(raw, "locations");
    if (!locations) return;
    for (const [key, start] of Object.entries(world.storyStarts)) {
      start.locations.forEach((location, index) => {
        if (locations.has(location)) return;
        report({
          path: ["storyStarts", key, "locations", index],
          messageId: "unknown",
          data: {
            start: JSON.stringify(key),
            location: JSON.stringify(location),
            suggestion: didYouMean(location, locations),
          },
        });
      });
    }
  },
});
