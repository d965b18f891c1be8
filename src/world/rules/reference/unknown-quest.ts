import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { keysOf, questSuggestion } from "../names.ts";
import { rawConditions, rawEffects } from "../triggers.ts";

/** Effect types whose `questId` names a quest (spec 2.2). */
const QUEST_ID_EFFECTS = new Set([
  "quest-progress",
  "quest-complete",
  "quest-objective-reveal",
  "quest-objective-complete",
  "quest-next-step-set",
  "quest-next-step-clear",
]);

export default defineRule({
  code: "reference/unknown-quest",
  severity: "error",
  description:
    "A trigger condition or effect names a quest (`quest-init` value, `questId`, `quests-completed` value) that is not a key of `quests`.",
  why: "Quests are found by their exact map key (docs/format.md, triggers: `quest-init` takes the outer key, exact match). A name that matches no key fails silently at run time: the quest never becomes available, or the condition can never hold.",
  messages: {
    unknown:
      'No quest has the key {quest}.{suggestion} Use the exact key of a quest in "quests", or add the quest.',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "lost sheep" }] } },
    },
    good: {
      triggers: { start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }] } },
    },
  },
  check({ raw, report }) {
    const quests = keysOf(raw, "quests");
    if (!quests) return;
    // The path of a report is built only for a report.
    const check = (name: unknown, path: JsonPath, field: "questId" | "value") => {
      if (typeof name !== "string" || quests.has(name)) return;
      report({
        path: [...path, field],
        messageId: "unknown",
        data: { quest: JSON.stringify(name), suggestion: questSuggestion(name, raw.quests) },
      });
    };
    const conditions = rawConditions(raw);
    for (let i = 0; i < conditions.length; i++) {
      const { path, condition } = conditions[i]!;
      if (condition.type === "quest-status") check(condition.questId, path, "questId");
      else if (condition.type === "quests-completed") check(condition.value, path, "value");
    }
    const effects = rawEffects(raw);
    for (let i = 0; i < effects.length; i++) {
      const { path, effect } = effects[i]!;
      if (effect.type === "quest-init") check(effect.value, path, "value");
      else if (typeof effect.type === "string" && QUEST_ID_EFFECTS.has(effect.type))
        check(effect.questId, path, "questId");
    }
  },
});
