import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "quest/unknown-location",
  severity: "error",
  description: "A `detailed` quest's `questLocation` is not a key of `locations`.",
  why: "A detailed quest is placed at its `questLocation` (docs/format.md), found by the location's exact key. A name that matches no location leaves the quest with nowhere to happen. (A `basic` quest has `spatialRelationship` instead; a missing one is a shape error.)",
  messages: {
    unknown:
      'Quest {quest} has questLocation {location}, which is not a location key.{suggestion} Use the exact key of a location in "locations", or add that location.',
  },
  examples: {
    bad: {
      quests: {
        "Lost Sheep": { detailType: "detailed", spatialRelationship: undefined, questLocation: "Old Mil" },
      },
    },
    good: {
      quests: {
        "Lost Sheep": { detailType: "detailed", spatialRelationship: undefined, questLocation: "Old Mill" },
      },
    },
  },
  check({ world, raw, report }) {
    const locations = keysOf(raw, "locations");
    if (!locations) return;
    for (const [key, quest] of Object.entries(world.quests)) {
      // "" is "not set" in real exports (the platform plays them).
      if (
        quest.detailType !== "detailed" ||
        quest.questLocation.trim() === "" ||
        locations.has(quest.questLocation)
      )
        continue;
      report({
        path: ["quests", key, "questLocation"],
        messageId: "unknown",
        data: {
          quest: JSON.stringify(key),
          location: JSON.stringify(quest.questLocation),
          suggestion: didYouMean(quest.questLocation, locations),
        },
      });
    }
  },
});
