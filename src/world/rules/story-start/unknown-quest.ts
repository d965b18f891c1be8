import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { keysOf, questSuggestion } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-quest",
  severity: "error",
  description: "A story start's `startingQuests` names a quest that is not a key of `quests`.",
  why: 'Quests are found by their exact map key. A name that matches no key starts no quest, and nothing says so during play. `firstQuest` is not checked: the format types it as free text (real worlds hold a sentence such as "The first quest is to ...", or ""), written for the narrator, not a quest key.',
  messages: {
    unknown:
      'No quest has the key {quest}.{suggestion} Use the exact key of a quest in "quests", or add the quest.',
  },
  examples: {
    bad: { storyStarts: { Morning: { startingQuests: ["Lost sheep"] } } },
    good: { storyStarts: { Morning: { startingQuests: ["Lost Sheep"] } } },
  },
  check({ world, raw, report }) {
    const quests = keysOf(raw, "quests");
    if (!quests) return;
    const check = (quest: string, path: JsonPath) => {
      if (quest.trim() === "" || quests.has(quest)) return;
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
    }
  },
});
