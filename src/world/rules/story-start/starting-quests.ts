import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "story-start/starting-quests",
  severity: "warning",
  description: "A story start lists quests in `startingQuests`.",
  why: "docs/format.md says `startingQuests` stays `[]` on every story start, because listed quests bypass the trigger system. The engine still makes them available at game start (docs/engine.md), so this is a warning: the same opening is better made with a trigger whose `quest-init` effect starts the quest, where conditions, scripts and the quest's own flow apply.",
  messages: {
    listed:
      'Story start {start} lists {count} starting quest(s) ({quests}); they bypass the trigger system. Set "startingQuests" to [] and start each quest with a trigger: a "quest-init" effect with value {first}.',
  },
  examples: {
    bad: { storyStarts: { Morning: { startingQuests: ["Lost Sheep"] } } },
    good: { storyStarts: { Morning: { startingQuests: [] } } },
  },
  check({ world, report }) {
    for (const [key, start] of Object.entries(world.storyStarts)) {
      const quests = start.startingQuests ?? [];
      if (quests.length === 0) continue;
      report({
        path: ["storyStarts", key, "startingQuests"],
        messageId: "listed",
        data: {
          start: JSON.stringify(key),
          count: quests.length,
          quests: quests.map((q) => JSON.stringify(q)).join(", "),
          first: JSON.stringify(quests[0]),
        },
      });
    }
  },
});
