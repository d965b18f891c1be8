import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { rawEffects } from "../triggers.ts";

const OBJECTIVE_EFFECTS = new Set(["quest-objective-reveal", "quest-objective-complete"]);

export default defineRule({
  code: "reference/unknown-objective",
  severity: "error",
  description:
    "A quest-objective effect names an `objectiveId` that is not a key of that quest's `objectives`.",
  why: "`quest-objective-reveal` and `quest-objective-complete` find the objective by its key in the quest's `objectives` map (docs/engine.md). An unknown key does nothing at run time, so the next-step hint the author planned never appears.",
  messages: {
    unknown:
      'Quest {quest} has no objective {objective}.{suggestion} Use a key of that quest\'s "objectives", or add the objective there.',
    noObjectives:
      'Quest {quest} defines no "objectives", so objective {objective} does not exist. Add an "objectives" map to the quest with this key ({ "id", "text", "status": "hidden" }).',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          effects: [{ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "pen" }],
        },
      },
    },
    good: {
      quests: {
        "Lost Sheep": { objectives: { pen: { id: "pen", text: "Mend the pen.", status: "hidden" } } },
      },
      triggers: {
        start_sheep: {
          effects: [{ type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "pen" }],
        },
      },
    },
  },
  check({ raw, report }) {
    const quests = isPlainObject(raw.quests) ? raw.quests : undefined;
    if (!quests) return;
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      if (typeof effect.type !== "string" || !OBJECTIVE_EFFECTS.has(effect.type)) continue;
      const { questId, objectiveId } = effect;
      if (typeof questId !== "string" || typeof objectiveId !== "string") continue;
      // An unknown quest is reported by reference/unknown-quest; a malformed one by the shape step.
      const quest = Object.hasOwn(quests, questId) ? quests[questId] : undefined;
      if (!isPlainObject(quest)) continue;
      const data = { quest: JSON.stringify(questId), objective: JSON.stringify(objectiveId) };
      const related = [{ path: ["quests", questId], message: "the quest is here" }];
      if (quest.objectives === undefined) {
        report({ path: [...path, "objectiveId"], messageId: "noObjectives", data, related });
        continue;
      }
      if (!isPlainObject(quest.objectives) || Object.hasOwn(quest.objectives, objectiveId)) continue;
      const keys = entriesOf(quest.objectives).map(([key]) => key);
      report({
        path: [...path, "objectiveId"],
        messageId: "unknown",
        data: { ...data, suggestion: didYouMean(objectiveId, keys) },
        related: [{ path: ["quests", questId, "objectives"], message: "its objectives are here" }],
      });
    }
  },
});
