import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { keysOf, questSuggestion } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-quest",
  severity: "error",
  description:
    "A story start's `startingQuests` or `firstQuest` names a quest that is not a key of `quests`.",
  why: "Quests are found by their exact map key. A name that matches no key starts no quest, and nothing says so during play.",
  messages: {
    unknown:
      'No quest has the key {quest}.{suggestion} Use the exact key of a quest in "quests", or add the quest.',
  },
  examples: {
    bad: { storyStarts: { Morning: { firstQuest: "Lost sheep" } } },
    good: { storyStarts: { Morning: { firstQuest: "Lost Sheep" } } },
  },
  check({ world, raw, report }) {
    const quests = keysOf(raw, "quests");
    if (!quests) return;
    const check = (quest: string, path: JsonPath) => {
      if (quests.has(quest)) return;
      report({
        path,
        messageId: "unknown",
        data: { quest: JSON.stringify(quest), suggestion: questSuggestion(quest, raw.quests) },
      });
    };
    for (const [key, start] of Object.entries(world.storyStarts)) {
      (start.startingQuests ?? []).forEach((quest, index) => {
        check(quest, ["storyStarts", key, "startingQuests", index]);
      });
      if (start.firstQuest !== undefined) check(start.firstQuest, ["storyStarts", key, "firstQuest"]);
    }
  },
});
